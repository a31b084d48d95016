// What runs around the content: reviewed plans, the activity log, restore points, visitor analytics and
// keys, outgoing mail, credit reservations, idempotency claims and the demo marker.
import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.js';
import { companies, websites } from './workspace.js';

/** Plans (R-PLAN-1): caller-bound, anchored to a website, pinned revision, 5 minutes, single use. */
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
  (t) => [
    index('analytics_website_idx').on(t.websiteId, t.occurredAt),
    // The rollup of a day and the retention purge read by time alone, across websites.
    index('analytics_occurred_idx').on(t.occurredAt),
    // Whether a visitor was already counted today (the events since analytics_today was built).
    index('analytics_visitor_idx').on(t.websiteId, t.visitorHash, t.occurredAt),
  ],
);

/** A website's figure of one UTC day: analytics_daily's and analytics_today's rows alike. */
const figureColumns = () => ({
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  day: date('day', { mode: 'string' }).notNull(),
  dim: text('dim').notNull(),
  key: text('key').notNull(),
  events: integer('events').notNull(),
  visitors: integer('visitors').notNull(),
});

/**
 * Analytics by UTC day (src/domain/analytics/rollup.ts): per website and day, one row per figure the
 * summaries show (`dim` kind, path, referrer or visit, and its `key`), with its events and distinct
 * visitors. A visitor's hash is salted per day, so visitors of different days add up exactly.
 */
export const analyticsDaily = pgTable('analytics_daily', figureColumns(), (t) => [
  primaryKey({ columns: [t.websiteId, t.day, t.dim, t.key] }),
  index('analytics_daily_day_idx').on(t.day),
]);

/** How far the daily rollup has gone: every UTC day up to `through` is in analytics_daily. One row. */
export const analyticsRollup = pgTable('analytics_rollup', {
  id: integer('id').primaryKey(),
  through: date('through', { mode: 'string' }).notNull(),
  /** How far analytics_today goes: the events before it, of the days after `through`, are in it. */
  provisionalThrough: ts('provisional_through'),
});

/**
 * The figures of the days not rolled up yet (today's), as analytics_daily holds a day's, from their
 * start up to `analytics_rollup.provisional_through`: rebuilt every minute (src/domain/analytics
 * /rollup.ts), so a summary reads today's events since then alone.
 */
export const analyticsToday = pgTable('analytics_today', figureColumns(), (t) => [
  primaryKey({ columns: [t.websiteId, t.day, t.dim, t.key] }),
]);

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
    kind: text('kind').notNull(), // invitation | document | lead | booking_request | booking | plan
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Where a reply goes: the visitor's own address on a notice about their message or request. */
    replyTo: text('reply_to'),
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
 * Credits held by one generate_image call between the check and the delivery (R-IMG-2,
 * R-IMG-2): the balance is lowered and this row written in one transaction; delivery deletes
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
 * `websiteId` is the website the call ran on (the gate's), by which an erasure finds the answers of
 * that site; `targets` the other websites the call was authorized on (a merge target), re-authorized
 * before a replay. `erased`: an erasure took the answer away, and a replay is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    connectionId: text('connection_id').notNull(),
    key: text('key').notNull(),
    tool: text('tool').notNull(),
    fingerprint: text('fingerprint').notNull(),
    claim: text('claim').notNull(),
    status: text('status').notNull(), // running | done | erased
    result: text('result'),
    websiteId: text('website_id'),
    targets: text('targets').array().notNull().default(sql`'{}'::text[]`),
    leaseUntil: ts('lease_until').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    index('idempotency_keys_website_idx').on(t.websiteId),
  ],
);

/**
 * The demo marker (R-REL-4): one row once `sitegate serve --demo` has seeded the demo, written
 * in the same transaction as the seed, so a half-seeded demo rolls back and a second seed is impossible
 * (primary key). `output` holds the demo's sign-ins and websites, never its tokens (src/demo/demo-tokens.ts).
 */
export const demoSeed = pgTable('demo_seed', {
  id: text('id').primaryKey(),
  output: jsonb('output').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});
