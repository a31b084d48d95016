// The owner hears about a new lead or booking request by email, through the outbox in the same
// transaction as the record (DESIGN §2 Mail): one message per owner of the website. The visitor's
// words go only into this message to the owner, as plain text; the subject names the website alone.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, websiteMembers } from '../../db/schema.js';
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
  const owners = await tx
    .select({ email: users.email })
    .from(websiteMembers)
    .innerJoin(users, eq(users.id, websiteMembers.userId))
    .where(and(eq(websiteMembers.websiteId, notice.websiteId), eq(websiteMembers.role, 'owner')));
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
