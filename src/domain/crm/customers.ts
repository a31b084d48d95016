// The site's customers as the owner sees them in the console: the latest leads, bookings and contacts
// with every field. What visitors wrote is stripped of invisible and bidi control characters and is
// shown as text, never markup (the page escapes it). Erased records show as anonymous.
import { and, desc, eq } from 'drizzle-orm';
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

const SHOWN = 100;
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

export async function customersOf(ctx: SiteCtx): Promise<Record<CustomerRow['kind'], CustomerRow[]>> {
  const site = ctx.website.id;
  const leadRows = await ctx.tx
    .select()
    .from(leads)
    .where(eq(leads.websiteId, site))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(SHOWN);
  const bookingRows = await ctx.tx
    .select()
    .from(bookings)
    .where(eq(bookings.websiteId, site))
    .orderBy(desc(bookings.startsAt), desc(bookings.id))
    .limit(SHOWN);
  const contactRows = await ctx.tx
    .select()
    .from(contacts)
    .where(eq(contacts.websiteId, site))
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(SHOWN);
  return {
    lead: leadRows.map(leadRow),
    booking: bookingRows.map(bookingRow),
    contact: contactRows.map(contactRow),
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
