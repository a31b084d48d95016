// The site's customers as the owner sees them in the console: the latest leads, bookings and contacts
// with every field. What visitors wrote is stripped of invisible and bidi control characters and is
// shown as text, never markup (the page escapes it). Erased records show as anonymous.
import { desc, eq } from 'drizzle-orm';
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
};

const SHOWN = 100;
const clean = (s: string | null) => (s === null ? null : stripInvisible(s));

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
    lead: leadRows.map((r) => ({
      id: r.id,
      kind: 'lead',
      status: r.status,
      name: clean(r.name)!,
      email: clean(r.email),
      phone: clean(r.phone),
      message: clean(r.message)!,
      note: r.note,
      at: r.createdAt,
    })),
    booking: bookingRows.map((r) => ({
      id: r.id,
      kind: 'booking',
      status: r.status,
      name: clean(r.customerName)!,
      email: clean(r.customerEmail),
      phone: clean(r.customerPhone),
      message: clean(r.message)!,
      note: r.note,
      at: r.startsAt,
    })),
    contact: contactRows.map((r) => ({
      id: r.id,
      kind: 'contact',
      status: r.status,
      name: clean(r.name)!,
      email: clean(r.email),
      phone: clean(r.phone),
      message: r.company ?? '',
      note: r.note,
      at: r.createdAt,
    })),
  };
}
