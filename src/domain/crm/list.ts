// Reading customer records (R-CRM-4): leads, bookings and contacts of one website, newest
// first, filtered by status, paged by keyset cursor. Every field a visitor wrote is fenced and
// stripped (src/domain/untrusted.ts); owner-written fields (status, handled, note) are plain.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bookings, contacts, leads } from '../../db/schema.js';
import { listOrderKey } from '../../db/tables/business.js';
import type { Db } from '../../db/client.js';
import type { AnySiteCtx, DirectSiteCtx } from '../context.js';
import { untrusted, untrustedOrNull } from '../untrusted.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export type ListInput = { status?: string; cursor?: string; limit: number };

type Keyed = { id: PgColumn; createdAt: PgColumn; websiteId: PgColumn; status: PgColumn };

// Keys compare at millisecond precision: PostgreSQL keeps microseconds but a JS Date (and so the
// cursor) keeps milliseconds; ordering and comparing on the same truncated value never skips a row.
// The key is the one each table's list index holds (listOrderKey), so a page reads only its rows.
const msOf = (t: Keyed) => listOrderKey(t.createdAt);
const order = (t: Keyed) => [desc(msOf(t)), desc(t.id)];

function where(t: Keyed, ctx: AnySiteCtx, input: ListInput): SQL {
  const parts: SQL[] = [eq(t.websiteId, ctx.website.id)];
  if (input.status) parts.push(eq(t.status, input.status));
  if (input.cursor) {
    const c = decodeCursor(input.cursor);
    const at = sql`(${c.createdAt.toISOString()}::timestamptz at time zone 'UTC')`;
    parts.push(sql`(${msOf(t)}, ${t.id}) < (${at}, ${c.id})`);
  }
  return and(...parts)!;
}

/** One page of a list, newest first, at most `limit` + 1 rows (the extra one says there is more). */
export function pageQuery<T extends typeof leads | typeof bookings | typeof contacts>(
  db: Db,
  table: T,
  ctx: AnySiteCtx,
  input: ListInput,
) {
  return db
    .select()
    .from(table as typeof leads)
    .where(where(table, ctx, input))
    .orderBy(...order(table))
    .limit(input.limit + 1) as unknown as Promise<T['$inferSelect'][]> & {
    toSQL(): { sql: string; params: unknown[] };
  };
}

/** A page of `limit` rows from `limit` + 1 read, and the cursor of the next page (null at the end). */
export function page<R extends { id: string; createdAt: Date }>(rows: R[], limit: number) {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return { items, nextCursor: more && last ? encodeCursor(last) : null };
}

const common = (r: {
  id: string;
  status: string;
  handled: boolean;
  note: string | null;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: r.id,
  status: r.status,
  handled: r.handled,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function listLeads(ctx: DirectSiteCtx, input: ListInput) {
  const rows = await pageQuery(ctx.db, leads, ctx, input);
  const { items, nextCursor } = page(rows, input.limit);
  return {
    leads: items.map((r) => ({
      ...common(r),
      followUpAt: r.followUpAt?.toISOString() ?? null,
      source: untrusted(r.source),
      name: untrusted(r.name),
      email: untrustedOrNull(r.email),
      phone: untrustedOrNull(r.phone),
      message: untrusted(r.message),
    })),
    nextCursor,
  };
}

export async function listBookings(ctx: DirectSiteCtx, input: ListInput) {
  const rows = await pageQuery(ctx.db, bookings, ctx, input);
  const { items, nextCursor } = page(rows, input.limit);
  return {
    bookings: items.map((r) => ({
      ...common(r),
      serviceId: r.serviceId,
      source: untrusted(r.source),
      startsAt: r.startsAt.toISOString(),
      endsAt: r.endsAt.toISOString(),
      customerName: untrusted(r.customerName),
      customerEmail: untrustedOrNull(r.customerEmail),
      customerPhone: untrustedOrNull(r.customerPhone),
      message: untrusted(r.message),
    })),
    nextCursor,
  };
}

export async function listContacts(ctx: DirectSiteCtx, input: ListInput) {
  const rows = await pageQuery(ctx.db, contacts, ctx, input);
  const { items, nextCursor } = page(rows, input.limit);
  return {
    contacts: items.map((r) => ({
      ...common(r),
      followUpAt: r.followUpAt?.toISOString() ?? null,
      name: untrusted(r.name),
      email: untrustedOrNull(r.email),
      phone: untrustedOrNull(r.phone),
      company: untrustedOrNull(r.company),
    })),
    nextCursor,
  };
}
