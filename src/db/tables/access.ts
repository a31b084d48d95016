// Who may call in: connections (API tokens, CLI and OAuth bindings), device-code pairings, delivery
// tokens, web sessions and the development identity provider's storage.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.js';
import { companies, users, websites } from './workspace.js';

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

/** Device-code pairings (R-PAIR-1) and read-only delivery pairings (R-AUTH-6). */
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
