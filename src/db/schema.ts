// The whole data model of SPEC.md §2, one Drizzle schema for PGlite and PostgreSQL alike.
// Storage layout notes live in docs/data-model.md. Ids are prefixed text (`site_…`), made by ids.ts.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  customType,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { PublishedSnapshot } from './page-shape.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/** A workspace (company). An agency company may manage client companies and withhold areas from them. */
export const companies = pgTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(), // the business name
  plan: text('plan').notNull().default('free'), // free | starter | pro | agency
  siteLimit: integer('site_limit').notNull().default(1),
  credits: integer('credits').notNull().default(0),
  monthlyCreditReset: boolean('monthly_credit_reset').notNull().default(false),
  trialEndsAt: ts('trial_ends_at'),
  paymentCustomerId: text('payment_customer_id'),
  aiConsent: boolean('ai_consent').notNull().default(false),
  advancedEditor: boolean('advanced_editor').notNull().default(false),
  agencyId: text('agency_id'),
  withheldAreas: jsonb('withheld_areas').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
});

/** Company Memory: short facts about the business that image generation and drafting may use. */
export const companyMemory = pgTable('company_memory', {
  id: text('id').primaryKey(),
  companyId: text('company_id')
    .notNull()
    .references(() => companies.id),
  fact: text('fact').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
});

/** Workspace membership: who belongs to a company at all (site roles are on website_members). */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull().default('member'), // owner | member
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

export const websites = pgTable(
  'websites',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    draftRev: integer('draft_rev').notNull().default(1),
    /** The published snapshot (pages with their sections), null while never published or unpublished. */
    published: jsonb('published').$type<PublishedSnapshot | null>(),
    publishedRev: integer('published_rev'),
    publishedAt: ts('published_at'),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    theme: jsonb('theme').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    fonts: jsonb('fonts').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    searchVisible: boolean('search_visible').notNull().default(false),
    /** Visitors' AI assistants may use the published site's MCP endpoint (on unless the owner turns it off). */
    visitorAgents: boolean('visitor_agents').notNull().default(true),
    /**
     * Set when the owner deletes the site in the console: every read path treats it as gone (tools
     * answer not_found, visitors get 404), the owner can restore it for 30 days, then the retention
     * sweep purges it with everything it holds (src/domain/sites/delete.ts).
     */
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('websites_company_idx').on(t.companyId)],
);

export const websiteMembers = pgTable(
  'website_members',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(), // owner | editor | viewer
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.userId] }), index('website_members_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    email: text('email').notNull(),
    level: text('level').notNull(), // editor | viewer
    status: text('status').notNull().default('pending'), // pending | accepted | revoked
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('invitations_website_idx').on(t.websiteId)],
);

export const pages = pgTable(
  'pages',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    kind: text('kind').notNull().default('page'), // page | post
    excerpt: text('excerpt'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    position: integer('position').notNull().default(0),
    rev: integer('rev').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pages_website_slug_idx').on(t.websiteId, t.slug)],
);

export const sections = pgTable(
  'sections',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    pageId: text('page_id')
      .notNull()
      .references(() => pages.id),
    type: text('type').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    layout: jsonb('layout').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    hidden: boolean('hidden').notNull().default(false),
    position: integer('position').notNull(),
    rev: integer('rev').notNull().default(1),
    /** Key of the section in an imported PortableSiteV1 payload; merges match on it. */
    externalKey: text('external_key'),
    /** Hash of the content as last imported; differs from the current content once edited in the app. */
    importFingerprint: text('import_fingerprint'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sections_page_idx').on(t.pageId, t.position), index('sections_website_idx').on(t.websiteId)],
);

export const brands = pgTable('brands', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id),
  palette: jsonb('palette').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  fonts: jsonb('fonts').$type<{ heading?: string; body?: string }>().notNull().default(sql`'{}'::jsonb`),
  style: text('style').notNull().default(''),
  voice: text('voice').notNull().default(''),
  logoAssetId: text('logo_asset_id'),
});

const crmColumns = {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  status: text('status').notNull(),
  handled: boolean('handled').notNull().default(false),
  note: text('note'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
};

/** Leads: name, email, phone and message are written by anonymous visitors (untrusted). */
export const leads = pgTable(
  'leads',
  {
    ...crmColumns,
    followUpAt: ts('follow_up_at'),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    message: text('message').notNull().default(''),
    source: text('source').notNull().default('form'),
  },
  (t) => [index('leads_website_idx').on(t.websiteId, t.createdAt)],
);

export const bookings = pgTable(
  'bookings',
  {
    ...crmColumns,
    serviceId: text('service_id'),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email'),
    customerPhone: text('customer_phone'),
    message: text('message').notNull().default(''),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** Where the request came from: `form` (the site's booking form) or `visitor_assistant` (its MCP endpoint). */
    source: text('source').notNull().default('form'),
  },
  (t) => [index('bookings_website_idx').on(t.websiteId, t.startsAt)],
);

export const contacts = pgTable(
  'contacts',
  {
    ...crmColumns,
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    company: text('company'),
  },
  (t) => [index('contacts_website_idx').on(t.websiteId, t.createdAt)],
);

export type DocumentLine = { description: string; quantity: number; unitPriceCents: number };

/** Invoices and quotes. Deliberately no updatedAt: the reviewed revision is a fingerprint of the row. */
export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    kind: text('kind').notNull(), // invoice | quote
    number: text('number').notNull(),
    status: text('status').notNull().default('draft'), // draft | sent | paid | void
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    lines: jsonb('lines').$type<DocumentLine[]>().notNull(),
    currency: text('currency').notNull().default('EUR'),
    totalCents: integer('total_cents').notNull(),
    dueAt: ts('due_at'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('documents_website_idx').on(t.websiteId)],
);

export const services = pgTable('services', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  priceCents: integer('price_cents'),
  currency: text('currency').notNull().default('EUR'),
  durationMinutes: integer('duration_minutes'),
  status: text('status').notNull().default('draft'), // draft | public
  createdAt: createdAt(),
});

export const products = pgTable('products', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull().default('EUR'),
  status: text('status').notNull().default('draft'), // draft | public
  revision: integer('revision').notNull().default(1),
  publishedRevision: integer('published_revision'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const domains = pgTable(
  'domains',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    hostname: text('hostname').notNull().unique(),
    status: text('status').notNull().default('pending'), // pending | verified
    verificationToken: text('verification_token').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    lastCheckedAt: ts('last_checked_at'),
    verifiedAt: ts('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [index('domains_website_idx').on(t.websiteId)],
);

/** Library assets; the bytes live in the content-addressed blob store under `sha256`. */
export const assets = pgTable(
  'assets',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    kind: text('kind').notNull().default('image'),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    sha256: text('sha256').notNull(),
    source: text('source').notNull(), // generated | import | upload
    prompt: text('prompt'),
    createdAt: createdAt(),
  },
  (t) => [index('assets_website_idx').on(t.websiteId)],
);

/** Reviewed plans (SPEC.md §3): caller-bound, anchored to a website, pinned revision, 5 minutes, single use. */
export const pendingActions = pgTable(
  'pending_actions',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    connectionId: text('connection_id').notNull(),
    creatorId: text('creator_id').notNull(),
    subject: jsonb('subject').$type<Record<string, unknown>>().notNull(),
    pinnedRevision: text('pinned_revision').notNull(),
    summary: text('summary').notNull(),
    status: text('status').notNull().default('pending'), // pending | approved | declined | redeemed
    approvedBy: text('approved_by'),
    approvedAt: ts('approved_at'),
    redeemedAt: ts('redeemed_at'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    index('pending_actions_website_idx').on(t.websiteId),
    index('pending_actions_expires_idx').on(t.expiresAt),
  ],
);

/** Activity: one line per tool call, without personal data; kept 90 days. */
export const activity = pgTable(
  'activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: text('company_id').notNull(),
    websiteId: text('website_id'),
    connectionId: text('connection_id'),
    tool: text('tool').notNull(),
    outcome: text('outcome').notNull(), // allowed | denied | failed
    code: text('code'),
    summary: text('summary').notNull(),
    creditsSpent: integer('credits_spent').notNull().default(0),
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_company_idx').on(t.companyId, t.createdAt),
    index('activity_connection_idx').on(t.connectionId, t.createdAt),
    index('activity_created_idx').on(t.createdAt),
  ],
);

/** Connections: owner-created; the API token is stored only as a SHA-256 hash plus a display prefix. */
export const connections = pgTable(
  'connections',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    reach: text('reach').notNull().default('website'), // website | workspace
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    clientKind: text('client_kind').notNull().default('api_token'), // api_token | cli | oauth
    tokenHash: text('token_hash').unique(),
    tokenPrefix: text('token_prefix'),
    oauthIssuer: text('oauth_issuer'),
    oauthSubject: text('oauth_subject'),
    oauthClientId: text('oauth_client_id'),
    /** kind = oauth: the signed-in person's email when the access token carried one (shown to the owner). */
    oauthEmail: text('oauth_email'),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    index('connections_company_idx').on(t.companyId),
    uniqueIndex('connections_oauth_idx')
      .on(t.oauthIssuer, t.oauthSubject, t.oauthClientId)
      .where(sql`revoked_at is null and oauth_client_id is not null`),
  ],
);

/** Device-code pairings (SPEC.md §4.2) and read-only delivery pairings (§5 rule 2). */
export const pairings = pgTable('pairings', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull().default('cli'), // cli | oauth (a verified OAuth client awaiting its binding)
  deviceCodeHash: text('device_code_hash').notNull().unique(),
  userCode: text('user_code').notNull(),
  clientName: text('client_name').notNull(),
  scopesRequested: jsonb('scopes_requested').$type<string[]>().notNull(),
  scopesGranted: jsonb('scopes_granted').$type<string[]>(),
  reach: text('reach'),
  websiteId: text('website_id'),
  status: text('status').notNull().default('pending'), // pending | approved | declined | consumed
  approvedBy: text('approved_by'),
  connectionId: text('connection_id'),
  intervalSeconds: integer('interval_seconds').notNull().default(5),
  lastPolledAt: ts('last_polled_at'),
  /** kind = oauth: the verified (issuer, subject, client) the owner may bind on /dashboard/connect. */
  oauthIssuer: text('oauth_issuer'),
  oauthSubject: text('oauth_subject'),
  oauthClientId: text('oauth_client_id'),
  /** kind = oauth: the signed-in person's email, when the access token carried one (shown to the owner). */
  oauthEmail: text('oauth_email'),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
});

/** Read-only delivery tokens for published content; never accepted by /api/mcp. */
export const deliveryTokens = pgTable('delivery_tokens', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  tokenHash: text('token_hash').notNull().unique(),
  tokenPrefix: text('token_prefix').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  revokedAt: ts('revoked_at'),
});

export const restorePoints = pgTable('restore_points', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  reason: text('reason').notNull(),
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
  createdBy: text('created_by'),
  createdAt: createdAt(),
});

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    kind: text('kind').notNull(), // pageview | form_submit | booking | assistant
    path: text('path').notNull().default('/'),
    referrer: text('referrer'),
    visitorHash: text('visitor_hash'),
    occurredAt: ts('occurred_at').notNull(),
  },
  (t) => [index('analytics_website_idx').on(t.websiteId, t.occurredAt)],
);

/**
 * Keys of the anonymous visitor side, shared by every process through the database: `form` signs the
 * fill-time token of the published site's forms; `salt:YYYY-MM-DD` is that UTC day's visitor salt,
 * deleted once the day is over so no stored visitor hash can be traced back (src/domain/analytics).
 */
export const visitorKeys = pgTable('visitor_keys', {
  id: text('id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/** Outgoing mail, written in the same transaction as the action that causes it; delivered with retries. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id'),
    kind: text('kind').notNull(), // invitation | document | lead | booking_request | plan
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attachments: jsonb('attachments').$type<Array<{ filename: string; content: string }>>(),
    status: text('status').notNull().default('queued'), // queued | sending | sent | failed | uncertain | cancelled
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

/**
 * Credits held by one generate_image call between the check and the delivery (SPEC §4.5 rule 6,
 * issue 10 item 2): the balance is lowered and this row written in one transaction; delivery deletes
 * the row (the charge stands), a failure deletes it and gives the credits back, and a reservation whose
 * call died with its process is settled (refunded) by a background job after `expiresAt`.
 */
export const creditReservations = pgTable(
  'credit_reservations',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    credits: integer('credits').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credit_reservations_expires_idx').on(t.expiresAt)],
);

/**
 * Idempotency keys (docs/reliability.md, "Retries"): one row per connection and key that a creating or
 * spending tool call claimed. The primary key is the claim, so two calls with one key cannot both
 * run. `fingerprint` is the SHA-256 of the tool's name and arguments; `result` the first call's data
 * as the JSON it was answered with, once `status` is `done`. A `running` claim of a tool that commits
 * in transactions of its own belongs to the call holding `claim` until `leaseUntil`; after that
 * another call may take it over (its process died). Rows are deleted by retention after `expiresAt`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    connectionId: text('connection_id').notNull(),
    key: text('key').notNull(),
    tool: text('tool').notNull(),
    fingerprint: text('fingerprint').notNull(),
    claim: text('claim').notNull(),
    status: text('status').notNull(), // running | done
    result: text('result'),
    leaseUntil: ts('lease_until').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The demo marker (issue 10 item 10): one row once `sitegate serve --demo` has seeded the demo, written
 * in the same transaction as the seed, so a half-seeded demo rolls back and a second seed is impossible
 * (primary key). `output` holds the demo's sign-ins and websites, never its tokens (src/demo/demo-tokens.ts).
 */
export const demoSeed = pgTable('demo_seed', {
  id: text('id').primaryKey(),
  output: jsonb('output').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

/** Signed-in web sessions; only the SHA-256 of the cookie value is stored. */
export const webSessions = pgTable('web_sessions', {
  idHash: text('id_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id),
  csrfToken: text('csrf_token').notNull(),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Blob bytes when running on PostgreSQL, so every process sees every blob (DESIGN §7). */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/**
 * The development identity provider's storage (oidc-provider adapter, src/auth/oauth/idp-store.ts):
 * client registrations, grants, sessions, codes and tokens, one row per (model, id), so a restart
 * keeps clients signed in. Expired rows are purged by a background job.
 */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at'),
    createdAt: createdAt(),
    /** model = Client: when a person first granted this registered client access (never, while null). */
    usedAt: ts('used_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_models_grant_idx').on(t.grantId),
    index('oidc_models_uid_idx').on(t.uid),
    index('oidc_models_user_code_idx').on(t.userCode),
    index('oidc_models_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The development identity provider's signing and cookie keys, one row per issuer URL, created on its
 * first start there. A row also marks the issuer as ours: client names are looked up only for it.
 */
export const idpKeys = pgTable('idp_keys', {
  issuer: text('issuer').primaryKey(),
  jwks: jsonb('jwks').$type<{ keys: Record<string, unknown>[] }>().notNull(),
  cookieKeys: jsonb('cookie_keys').$type<string[]>().notNull(),
  createdAt: createdAt(),
});
