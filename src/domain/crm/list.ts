// Reading customer records (R-CRM-4): leads, bookings and contacts of one website, newest
// first, filtered by status, paged by keyset cursor. Every field a visitor wrote is fenced and
// stripped (src/domain/untrusted.ts); owner-written fields (status, handled, note) are plain.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bookings, contacts, leads } from '../../db/schema.js';
import type { AnySiteCtx, DirectSiteCtx } from '../context.js';
import { untrusted, untrustedOrNull } from '../untrusted.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export type ListInput = { status?: string; cursor?: string; limit: number };

type Keyed = { id: PgColumn; createdAt: PgColumn; websiteId: PgColumn; status: PgColumn };

// Keys compare at millisecond precision: PostgreSQL keeps microseconds but a JS Date (and so the
// cursor) keeps milliseconds; ordering and comparing on the same truncated value never skips a row.
const msOf = (t: Keyed) => sql`date_trunc('milliseconds', ${t.createdAt})`;
const order = (t: Keyed) => [desc(msOf(t)), desc(t.id)];

function where(t: Keyed, ctx: AnySiteCtx, input: ListInput): SQL {
  const parts: SQL[] = [eq(t.websiteId, ctx.website.id)];
  if (input.status) parts.push(eq(t.status, input.status));
  if (input.cursor) {
    const c = decodeCursor(input.cursor);
    const at = sql`${c.createdAt.toISOString()}::timestamptz`;
    parts.push(sql`(${msOf(t)} < ${at} or (${msOf(t)} = ${at} and ${t.id} < ${c.id}))`);
  }
  return and(...parts)!;
}

function page<R extends { id: string; createdAt: Date }>(rows: R[], limit: number) {
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
  const rows = await ctx.db
    .select()
    .from(leads)
    .where(where(leads, ctx, input))
    .orderBy(...order(leads))
    .limit(input.limit + 1);
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
  const rows = await ctx.db
    .select()
    .from(bookings)
    .where(where(bookings, ctx, input))
    .orderBy(...order(bookings))
    .limit(input.limit + 1);
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
  const rows = await ctx.db
    .select()
    .from(contacts)
    .where(where(contacts, ctx, input))
    .orderBy(...order(contacts))
    .limit(input.limit + 1);
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
