import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { ownerEmails } from '../../gate/owners.js';
import { queueMail } from '../mail/outbox.js';

export type OwnerNotice = {
  websiteId: string;
  siteName: string;
  kind: 'lead' | 'booking_request';
  subject: string;
  lines: string[];
  /** The visitor's address: a reply to the notice goes to them, when it is a valid address. */
  replyTo?: string;
};

/** An address a Reply-To header may carry: one valid address, nothing that could add a header. */
const REPLY_TO = z.email().max(254);

/** Queues the notice to every owner of the website; returns the outbox ids to deliver after commit. */
export async function notifyOwners(tx: Db, notice: OwnerNotice, now: Date): Promise<string[]> {
  const owners = await ownerEmails(tx, notice.websiteId);
  const replyTo = REPLY_TO.safeParse(notice.replyTo).success ? notice.replyTo : undefined;
  const text = [
    ...notice.lines,
    '',
    '—',
    replyTo
      ? `Sent by the ${notice.siteName} website. The visitor did not get a copy of this email; replying to it writes to the address they gave.`
      : `Sent by the ${notice.siteName} website. The visitor did not get a copy of this email; reply to the address they gave.`,
    'Your assistant sees it too (list_leads / list_bookings), marked as text written by a visitor.',
  ].join('\n');
  const ids: string[] = [];
  for (const o of owners) {
    ids.push(
      await queueMail(
        tx,
        {
          websiteId: notice.websiteId,
          kind: notice.kind,
          to: o.email,
          subject: notice.subject,
          text,
          replyTo,
        },
        now,
      ),
    );
  }
  return ids;
}
