// crm_update (R-CRM-1 to R-CRM-3): sets status, handled, note
// and followUpAt (leads and contacts) on one record of this website. It never deletes, never touches an
// email or any visitor-written field, and never messages anyone. A booking's status can only
// become `no_show`: cancelling, completing, restoring and rescheduling email the customer, so they
// belong to the owner in the app. A record of another site is the same not_found as a missing id.
import { and, eq } from 'drizzle-orm';
import { bookings, contacts, leads } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { Refusal, invalidInput, notFound } from '../../kernel/errors.js';
import { assertAllowed } from '../bookings/owner.js';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost', 'spam'] as const;
export const CONTACT_STATUSES = ['lead', 'customer', 'subscriber', 'inactive'] as const;
const BOOKING_SETTABLE = ['no_show'] as const;

export type CrmRecord = 'lead' | 'booking' | 'contact';
export type CrmUpdateInput = {
  record: CrmRecord;
  id: string;
  status?: string;
  handled?: boolean;
  note?: string | null;
  followUpAt?: string | null;
};

const TABLES = { lead: leads, booking: bookings, contact: contacts } as const;
/** The records with a follow-up date. */
const FOLLOWED = { lead: leads, contact: contacts } as const;

/** The changed field names, in a stable order (what Activity may name, R-CRM-3). */
export function changedFields(input: CrmUpdateInput): string[] {
  return (['status', 'handled', 'note', 'followUpAt'] as const).filter((k) => input[k] !== undefined);
}

export async function crmUpdate(ctx: SiteCtx, input: CrmUpdateInput) {
  const fields = changedFields(input);
  if (!fields.length) {
    throw invalidInput('Nothing to update.', 'Pass at least one of status, handled, note or followUpAt.');
  }
  if (input.followUpAt !== undefined && input.record === 'booking') {
    throw new Refusal('not_settable', 'followUpAt exists on leads and contacts, not on a booking.');
  }
  if (input.status !== undefined) {
    const page = `${ctx.services.config.baseUrl}/dashboard/sites/${encodeURIComponent(ctx.website.id)}/bookings`;
    checkStatus(input.record, input.status, page);
  }

  const table = TABLES[input.record];
  const mine = and(eq(table.id, input.id), eq(table.websiteId, ctx.website.id));
  const [row] = await ctx.tx.select({ id: table.id }).from(table).where(mine).for('update');
  if (!row) throw notFound(input.record);
  if (input.record === 'booking' && input.status === 'no_show') await assertNoShow(ctx, row.id);

  const set: Record<string, unknown> = { updatedAt: ctx.now };
  if (input.status !== undefined) set.status = input.status;
  if (input.handled !== undefined) set.handled = input.handled;
  if (input.note !== undefined) set.note = input.note === null || input.note === '' ? null : input.note;
  if (input.followUpAt !== undefined) set.followUpAt = input.followUpAt ? new Date(input.followUpAt) : null;
  await ctx.tx.update(table).set(set).where(eq(table.id, row.id));

  const [out] = await ctx.tx
    .select({ status: table.status, handled: table.handled, note: table.note })
    .from(table)
    .where(eq(table.id, row.id));
  const followed = input.record === 'booking' ? null : FOLLOWED[input.record];
  const [lead] = followed
    ? await ctx.tx.select({ followUpAt: followed.followUpAt }).from(followed).where(eq(followed.id, row.id))
    : [];
  return {
    record: input.record,
    id: row.id,
    changed: fields,
    status: out!.status,
    handled: out!.handled,
    note: out!.note,
    followUpAt: lead?.followUpAt?.toISOString() ?? null,
  };
}

/** The console's own rule for a no-show (a confirmed or completed booking that has started). */
async function assertNoShow(ctx: SiteCtx, id: string): Promise<void> {
  const [b] = await ctx.tx
    .select({ status: bookings.status, startsAt: bookings.startsAt })
    .from(bookings)
    .where(eq(bookings.id, id));
  if (b) assertAllowed('no_show', b, ctx.now);
}

/** `bookingsPage`: the site's Bookings page, where the owner changes a booking. */
function checkStatus(record: CrmRecord, status: string, bookingsPage: string): void {
  if (record === 'booking') {
    if ((BOOKING_SETTABLE as readonly string[]).includes(status)) return;
    throw new Refusal(
      'not_settable',
      `A booking’s status can only be set to no_show here. "${status.slice(0, 40)}" — cancelling, completing, restoring or rescheduling — emails the customer (and may offer the slot to a waitlist), so the owner does it on the site's Bookings page.`,
      `Set handled or note instead, or ask the owner to change the booking on the Bookings page: ${bookingsPage}`,
    );
  }
  const allowed: readonly string[] = record === 'lead' ? LEAD_STATUSES : CONTACT_STATUSES;
  if (!allowed.includes(status)) {
    throw invalidInput(`A ${record} status must be one of: ${allowed.join(', ')}.`);
  }
}
