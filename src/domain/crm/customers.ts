// The site's customers as the owner sees them in the console: leads, bookings and contacts, newest first,
// a page at a time, with every field. What visitors wrote is stripped of invisible and bidi control characters and is
// shown as text, never markup (the page escapes it). Erased records show as anonymous.
import { and, eq } from 'drizzle-orm';
import { page, pageQuery } from './list.js';
import { notFound } from '../../kernel/errors.js';
import { bookings, contacts, leads } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { stripInvisible } from '../untrusted.js';

export type CustomerRow = {
  id: string;
  kind: 'lead' | 'booking' | 'contact';
  status: string;
  name: string;
  email: string | null;
  phone: string | null;
  message: string;
  note: string | null;
  at: Date;
  handled: boolean;
  /** Leads and contacts: when the owner means to follow up. */
  followUpAt: Date | null;
  /** Leads and bookings: where it came from (`form`, `visitor_assistant`); visitor-influenced text. */
  source: string | null;
  /** The last change: an edit form carries it, so a stale form is refused. */
  updatedAt: Date;
};

/** Records a list shows at once; older ones are a page further. */
export const SHOWN = 50;
const clean = (s: string | null) => (s === null ? null : stripInvisible(s));

const leadRow = (r: typeof leads.$inferSelect): CustomerRow => ({
  id: r.id,
  kind: 'lead' as const,
  status: r.status,
  name: clean(r.name)!,
  email: clean(r.email),
  phone: clean(r.phone),
  message: clean(r.message)!,
  note: r.note,
  at: r.createdAt,
  handled: r.handled,
  followUpAt: r.followUpAt,
  source: clean(r.source),
  updatedAt: r.updatedAt,
});
const bookingRow = (r: typeof bookings.$inferSelect): CustomerRow => ({
  id: r.id,
  kind: 'booking' as const,
  status: r.status,
  name: clean(r.customerName)!,
  email: clean(r.customerEmail),
  phone: clean(r.customerPhone),
  message: clean(r.message)!,
  note: r.note,
  at: r.startsAt,
  handled: r.handled,
  followUpAt: null,
  source: clean(r.source),
  updatedAt: r.updatedAt,
});
const contactRow = (r: typeof contacts.$inferSelect): CustomerRow => ({
  id: r.id,
  kind: 'contact' as const,
  status: r.status,
  name: clean(r.name)!,
  email: clean(r.email),
  phone: clean(r.phone),
  message: r.company ?? '',
  note: r.note,
  at: r.createdAt,
  handled: r.handled,
  followUpAt: r.followUpAt,
  source: null,
  updatedAt: r.updatedAt,
});

export type CustomerKind = CustomerRow['kind'];
export type CustomerPage = { rows: CustomerRow[]; nextCursor: string | null; from: string | null };

/**
 * A page of each list, newest first (by when the record was made), from each list's own cursor: the
 * page reads its rows along the list's index (src/domain/crm/list.ts), whatever the site holds.
 */
export async function customersOf(
  ctx: SiteCtx,
  cursors: Partial<Record<CustomerKind, string>> = {},
): Promise<Record<CustomerKind, CustomerPage>> {
  const read = async <T extends typeof leads | typeof bookings | typeof contacts>(
    table: T,
    kind: CustomerKind,
    row: (r: T['$inferSelect']) => CustomerRow,
  ): Promise<CustomerPage> => {
    const cursor = cursors[kind] || undefined;
    const rows = await pageQuery(ctx.tx, table, ctx, { limit: SHOWN, cursor });
    const { items, nextCursor } = page(
      rows as Array<T['$inferSelect'] & { id: string; createdAt: Date }>,
      SHOWN,
    );
    return { rows: items.map(row), nextCursor, from: cursor ?? null };
  };
  return {
    lead: await read(leads, 'lead', leadRow),
    booking: await read(bookings, 'booking', bookingRow),
    contact: await read(contacts, 'contact', contactRow),
  };
}

/** One lead or contact of this website as the console shows it; a foreign or missing id is not_found. */
export async function customerOf(ctx: SiteCtx, kind: 'lead' | 'contact', id: string) {
  const row =
    kind === 'lead'
      ? (
          await ctx.tx
            .select()
            .from(leads)
            .where(and(eq(leads.id, id), eq(leads.websiteId, ctx.website.id)))
        ).map(leadRow)[0]
      : (
          await ctx.tx
            .select()
            .from(contacts)
            .where(and(eq(contacts.id, id), eq(contacts.websiteId, ctx.website.id)))
        ).map(contactRow)[0];
  if (!row) throw notFound(kind);
  return row as CustomerRow & { kind: typeof kind };
}
