// The owner's edit of a lead or a contact in the console: status, handled, note and follow-up date,
// written by crm_update's own function (update.ts), so the tool and the owner share one path and one set
// of rules. Only the fields the owner changed are written, and the Activity line names them (never a
// name, email, phone or note: R-CRM-3). The form names the record as the page showed it (its last
// change): if it changed since, by an assistant or another owner, nothing is written.
import { TZDate } from '@date-fns/tz';
import { and, eq } from 'drizzle-orm';
import { contacts, leads, websites } from '../../db/schema.js';
import { Refusal, invalidInput, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { DATE, timeZoneOf } from './booking-request.js';
import { type CrmUpdateInput, crmUpdate } from './update.js';

export type OwnerEdit = {
  record: 'lead' | 'contact';
  id: string;
  /** When the record last changed, as the owner's page showed it (ISO). */
  shown: string;
  status: string;
  handled: boolean;
  note: string;
  /** `YYYY-MM-DD` in the website's time zone, or '' for none. */
  followUp: string;
};

const TABLES = { lead: leads, contact: contacts } as const;
/** A follow-up date means that morning in the website's zone. */
const FOLLOW_UP_HOUR = 9;
const MAX_NOTE = 2_000;

/** The follow-up date as the owner's date field holds it, in the website's zone ('' for none). */
export function followUpDay(at: Date | null, timeZone: string): string {
  if (!at) return '';
  const d = new TZDate(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export async function ownerUpdateCustomer(ctx: SiteCtx, edit: OwnerEdit) {
  const table = TABLES[edit.record];
  const [row] = await ctx.tx
    .select()
    .from(table)
    .where(and(eq(table.id, edit.id), eq(table.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound(edit.record);
  if (row.updatedAt.toISOString() !== edit.shown) {
    throw new Refusal(
      'conflict',
      `This ${edit.record} changed after your page was shown (by you elsewhere, another owner or an assistant).`,
      'Open it again to see it as it is now, then make your change.',
    );
  }
  const [site] = await ctx.tx
    .select({ config: websites.config })
    .from(websites)
    .where(eq(websites.id, ctx.website.id));
  const timeZone = timeZoneOf(site!.config);
  const followUp = edit.followUp.trim();
  if (followUp && !DATE.test(followUp))
    throw invalidInput('The follow-up date must be a date (for example 2026-12-24).');

  const input: CrmUpdateInput = { record: edit.record, id: row.id };
  if (edit.status !== row.status) input.status = edit.status;
  if (edit.handled !== row.handled) input.handled = edit.handled;
  const note = edit.note.trim();
  if (note.length > MAX_NOTE) throw invalidInput(`The note can be at most ${MAX_NOTE} characters.`);
  if (note !== (row.note ?? '')) input.note = note;
  if (followUp !== followUpDay(row.followUpAt, timeZone)) {
    input.followUpAt = followUp ? followUpAt(followUp, timeZone) : null;
  }
  const out = Object.keys(input).length > 2 ? await crmUpdate(ctx, input) : null;
  if (out) {
    await recordOwnerAction(
      ctx,
      'crm_update',
      `The owner updated a ${edit.record}: ${out.changed.join(', ')}`,
    );
  }
  return { record: edit.record, changed: out?.changed ?? [] };
}

function followUpAt(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const at = new TZDate(y, m - 1, d, FOLLOW_UP_HOUR, 0, timeZone);
  if (at.getFullYear() !== y || at.getMonth() !== m - 1 || at.getDate() !== d || y < 1970 || y > 9999) {
    throw invalidInput('That follow-up date does not exist; please choose another.');
  }
  return new Date(at.getTime()).toISOString();
}
