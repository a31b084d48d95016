import type { Db } from '../../db/client.js';
import { ownerEmails } from '../../gate/owners.js';
import { queueMail } from '../mail/outbox.js';

export type OwnerNotice = {
  websiteId: string;
  siteName: string;
  kind: 'lead' | 'booking_request';
  subject: string;
  lines: string[];
};

/** Queues the notice to every owner of the website; returns the outbox ids to deliver after commit. */
export async function notifyOwners(tx: Db, notice: OwnerNotice, now: Date): Promise<string[]> {
  const owners = await ownerEmails(tx, notice.websiteId);
  const text = [
    ...notice.lines,
    '',
    '—',
    `Sent by the ${notice.siteName} website. The visitor did not get a copy of this email; reply to the address they gave.`,
    'Your assistant sees it too (list_leads / list_bookings), marked as text written by a visitor.',
  ].join('\n');
  const ids: string[] = [];
  for (const o of owners) {
    ids.push(
      await queueMail(
        tx,
        { websiteId: notice.websiteId, kind: notice.kind, to: o.email, subject: notice.subject, text },
        now,
      ),
    );
  }
  return ids;
}
