// The business a website runs: leads, bookings and contacts (one CRM shape), invoices and quotes,
// services and products.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.js';
import { websites } from './workspace.js';

/**
 * The order the customer lists page in (src/domain/crm/list.ts): newest first at millisecond precision
 * (a cursor is a JS Date), then id. In UTC, so the expression is immutable and can be indexed.
 */
export const listOrderKey = (createdAt: AnyPgColumn) =>
  sql`date_trunc('milliseconds', (${createdAt} at time zone 'UTC'))`;
const listIndex = (table: string, t: { websiteId: AnyPgColumn; createdAt: AnyPgColumn; id: AnyPgColumn }) =>
  index(`${table}_list_idx`).on(t.websiteId, listOrderKey(t.createdAt), t.id);

/**
 * A record's free text as an erasure searches it for an address (src/domain/crm/erase.ts): the fields
 * in lower case, joined by a space (an address has none, so no match spans two fields). A trigram index
 * on the same expression (pg_trgm) serves a `like '%address%'` search without reading every record.
 */
export const freeText = (...cols: AnyPgColumn[]) =>
  sql`lower(${sql.join(
    cols.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  )})`;
const freeTextIndex = (table: string, ...cols: AnyPgColumn[]) =>
  index(`${table}_free_text_idx`).using('gin', sql`${freeText(...cols)} gin_trgm_ops`);

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
  (t) => [
    index('leads_website_idx').on(t.websiteId, t.createdAt),
    listIndex('leads', t),
    index('leads_email_idx').on(t.websiteId, sql`lower(${t.email})`),
    freeTextIndex('leads', t.message, t.note),
  ],
);

/** A booking that is neither a request nor confirmed: declined, cancelled, done (bookings_closed_idx). */
export const CLOSED_BOOKING = (status: AnyPgColumn) => sql`${status} not in ('requested', 'confirmed')`;

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
  (t) => [
    index('bookings_website_idx').on(t.websiteId, t.startsAt),
    // The console's lists (src/domain/bookings/owner.ts): upcoming and requested by status, soonest
    // first; the closed ones by time.
    index('bookings_status_idx').on(t.websiteId, t.status, t.startsAt, t.id),
    index('bookings_closed_idx').on(t.websiteId, t.startsAt, t.id).where(CLOSED_BOOKING(t.status)),
    listIndex('bookings', t),
    index('bookings_email_idx').on(t.websiteId, sql`lower(${t.customerEmail})`),
    freeTextIndex('bookings', t.message, t.note),
  ],
);

export const contacts = pgTable(
  'contacts',
  {
    ...crmColumns,
    /** When the owner means to get back to them (as on leads). */
    followUpAt: ts('follow_up_at'),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    company: text('company'),
  },
  (t) => [
    index('contacts_website_idx').on(t.websiteId, t.createdAt),
    listIndex('contacts', t),
    index('contacts_email_idx').on(t.websiteId, sql`lower(${t.email})`),
    freeTextIndex('contacts', t.note),
  ],
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
