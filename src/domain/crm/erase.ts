// Erasing one person's personal data on one website (R-CRM-5: a data-protection request; human-only,
// the owner's console: never a tool). Every lead, booking and contact of that email address loses name,
// email, phone, message and notes, and stays as an anonymous record so counts and Activity add up.
// Draft invoices and quotes addressed to them lose the recipient; sent ones are bookkeeping records the
// business must keep, and are kept (the page says so). Unsent mail to or about them is cancelled and
// every outbox message that names them is emptied; open plans that name them are withdrawn, and so are
// invitations to their address not yet accepted; the stored answers of keyed calls on the site that
// hold the address are erased (a replay is refused, src/domain/idempotency/keys.ts); the address
// written into other records' free text is replaced. The Activity line gives counts, never the person.
import { plural } from '../../kernel/plural.js';
import { type SQL, and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  bookings,
  contacts,
  documents,
  freeText,
  invitations,
  leads,
  mailOutbox,
  pendingActions,
} from '../../db/schema.js';
import { invalidInput } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import { eraseStoredAnswers } from '../idempotency/keys.js';
import type { SiteCtx } from '../context.js';

export type Erasure = {
  leads: number;
  bookings: number;
  contacts: number;
  draftDocuments: number;
  /** Sent invoices and quotes addressed to the person: kept, as bookkeeping requires. */
  keptDocuments: number;
  mailCancelled: number;
  mailEmptied: number;
  plansWithdrawn: number;
  invitationsWithdrawn: number;
  /** Stored answers of keyed calls (kept a day for their replay) that named the person. */
  answersErased: number;
};

/** The plan kinds whose subject addresses or invites a person (by email). */
const PLANS_NAMING_A_PERSON = ['grant_access', 'send_document'] as const;

const ERASED_MAIL = 'This message was erased at the owner’s request (personal data).';

/** The address as compared: trimmed, lower case; refused unless it looks like one. */
function erasableEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length < 3 || email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw invalidInput('Enter the email address of the person whose data you want to erase.');
  }
  return email;
}

const same = (col: PgColumn, email: string) => sql`lower(${col}) = ${email}`;
const mentions = (col: PgColumn | SQL, email: string) =>
  sql`position(${email} in lower(coalesce(${col}, ''))) > 0`;
/** A `like` pattern matching the address anywhere in a text (its own `%`, `_` and `\` taken literally). */
const anywhere = (email: string) => `%${email.replace(/[\\%_]/g, '\\$&')}%`;
/**
 * Whether a record's free text (the fields of `freeText`, src/db/tables/business.ts) holds the address:
 * the expression of the table's trigram index, so the search walks the index, not every record.
 */
export const mentionedIn = (cols: PgColumn[], email: string) =>
  sql`${freeText(...cols)} like ${anywhere(email)}`;
/** The address replaced in free text, whatever its case. */
const scrub = (col: PgColumn, pattern: string) => sql`regexp_replace(${col}, ${pattern}, '[erased]', 'gi')`;
const pattern = (email: string) => email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What an erasure would touch, counted without changing anything (the confirmation shows it). */
export async function erasurePreview(ctx: SiteCtx, rawEmail: string) {
  const email = erasableEmail(rawEmail);
  const n = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]?.n ?? 0);
  const countOf = (table: typeof leads | typeof contacts, col: PgColumn) =>
    n(
      ctx.tx
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.websiteId, ctx.website.id), same(col, email))),
    );
  return {
    email,
    leads: await countOf(leads, leads.email),
    bookings: await n(
      ctx.tx
        .select({ n: sql<number>`count(*)::int` })
        .from(bookings)
        .where(and(eq(bookings.websiteId, ctx.website.id), same(bookings.customerEmail, email))),
    ),
    contacts: await countOf(contacts, contacts.email),
  };
}

export async function erasePerson(ctx: SiteCtx, rawEmail: string): Promise<Erasure> {
  const email = erasableEmail(rawEmail);
  const site = ctx.website.id;
  const at = ctx.now;
  const pat = pattern(email);

  const erasedLeads = await ctx.tx
    .update(leads)
    .set({ name: '', email: null, phone: null, message: '', note: null, updatedAt: at })
    .where(and(eq(leads.websiteId, site), same(leads.email, email)))
    .returning({ id: leads.id });
  const erasedBookings = await ctx.tx
    .update(bookings)
    .set({
      customerName: '',
      customerEmail: null,
      customerPhone: null,
      message: '',
      note: null,
      updatedAt: at,
    })
    .where(and(eq(bookings.websiteId, site), same(bookings.customerEmail, email)))
    .returning({ id: bookings.id });
  const erasedContacts = await ctx.tx
    .update(contacts)
    .set({ name: '', email: null, phone: null, company: null, note: null, updatedAt: at })
    .where(and(eq(contacts.websiteId, site), same(contacts.email, email)))
    .returning({ id: contacts.id });

  // The address as written into other records' free text (a visitor's message, the owner's note).
  await ctx.tx
    .update(leads)
    .set({ message: scrub(leads.message, pat), note: scrub(leads.note, pat) })
    .where(and(eq(leads.websiteId, site), mentionedIn([leads.message, leads.note], email)));
  await ctx.tx
    .update(bookings)
    .set({ message: scrub(bookings.message, pat), note: scrub(bookings.note, pat) })
    .where(and(eq(bookings.websiteId, site), mentionedIn([bookings.message, bookings.note], email)));
  await ctx.tx
    .update(contacts)
    .set({ note: scrub(contacts.note, pat) })
    .where(and(eq(contacts.websiteId, site), mentionedIn([contacts.note], email)));

  const drafts = await ctx.tx
    .update(documents)
    .set({ recipientName: '', recipientEmail: '' })
    .where(
      and(
        eq(documents.websiteId, site),
        eq(documents.status, 'draft'),
        same(documents.recipientEmail, email),
      ),
    )
    .returning({ id: documents.id });
  const kept = await ctx.tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.websiteId, site), same(documents.recipientEmail, email)));

  // Mail to them, or about them (the owner's notice of their message): unsent is cancelled, and no
  // message keeps their words.
  const named = sql`(${same(mailOutbox.to, email)} or ${same(mailOutbox.replyTo, email)} or ${mentions(mailOutbox.subject, email)} or ${mentions(mailOutbox.text, email)} or ${mentions(mailOutbox.html, email)})`;
  const cancelled = await ctx.tx
    .update(mailOutbox)
    .set({ status: 'cancelled' })
    .where(and(eq(mailOutbox.websiteId, site), inArray(mailOutbox.status, ['queued']), named))
    .returning({ id: mailOutbox.id });
  const emptied = await ctx.tx
    .update(mailOutbox)
    .set({
      to: sql`case when ${same(mailOutbox.to, email)} then 'erased' else ${mailOutbox.to} end`,
      subject: sql`case when ${mentions(mailOutbox.subject, email)} then 'Erased message' else ${mailOutbox.subject} end`,
      text: ERASED_MAIL,
      html: null,
      replyTo: sql`case when ${same(mailOutbox.replyTo, email)} then null else ${mailOutbox.replyTo} end`,
      attachments: null,
      lastError: null,
    })
    .where(and(eq(mailOutbox.websiteId, site), named))
    .returning({ id: mailOutbox.id });

  // A plan that would send to them or invite them no longer stands. Only those kinds name a person: a
  // publish plan holds the draft (the owner's own words, which an erasure does not rewrite), megabytes
  // of it on a large site, and is never searched.
  const withdrawn = await ctx.tx
    .delete(pendingActions)
    .where(
      and(
        eq(pendingActions.websiteId, site),
        inArray(pendingActions.kind, [...PLANS_NAMING_A_PERSON]),
        mentions(sql`${pendingActions.subject}::text`, email),
      ),
    )
    .returning({ id: pendingActions.id });
  // An invitation they have not accepted (an accepted one made them a member, which is not this page's).
  const invitationsGone = await ctx.tx
    .delete(invitations)
    .where(
      and(
        eq(invitations.websiteId, site),
        same(invitations.email, email),
        ne(invitations.status, 'accepted'),
      ),
    )
    .returning({ id: invitations.id });
  const answersErased = await eraseStoredAnswers(ctx.tx, site, email);

  const result: Erasure = {
    leads: erasedLeads.length,
    bookings: erasedBookings.length,
    contacts: erasedContacts.length,
    draftDocuments: drafts.length,
    keptDocuments: kept.length,
    mailCancelled: cancelled.length,
    mailEmptied: emptied.length,
    plansWithdrawn: withdrawn.length,
    invitationsWithdrawn: invitationsGone.length,
    answersErased,
  };
  await recordOwnerAction(ctx, 'erase_personal_data', erasureSummary(result));
  return result;
}

/** The Activity line: record types and counts, never the person. */
function erasureSummary(e: Erasure): string {
  const parts = [
    plural(e.leads, 'lead'),
    plural(e.bookings, 'booking'),
    plural(e.contacts, 'contact'),
    plural(e.draftDocuments, 'draft document'),
  ];
  const extra = [
    e.mailCancelled ? `${plural(e.mailCancelled, 'unsent email')} cancelled` : '',
    e.mailEmptied ? `${plural(e.mailEmptied, 'email')} emptied` : '',
    e.plansWithdrawn ? `${plural(e.plansWithdrawn, 'open plan')} withdrawn` : '',
    e.invitationsWithdrawn ? `${plural(e.invitationsWithdrawn, 'invitation')} withdrawn` : '',
    e.answersErased ? `${plural(e.answersErased, 'stored answer')} erased` : '',
    e.keptDocuments ? `${plural(e.keptDocuments, 'sent document')} kept for bookkeeping` : '',
  ].filter(Boolean);
  return `The owner erased one person's personal data: ${parts.join(', ')}${extra.length ? `; ${extra.join(', ')}` : ''}.`;
}
