// What the owner sees of outgoing mail (R-REL-2): the real state of each message of the sites
// they own — queued, sending, sent, failed, uncertain — never "sent" before the mail server accepted it.
import { desc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox, websites } from '../../db/schema.js';
import { ownedWebsiteIds } from '../../gate/owners.js';

export type OutgoingMail = {
  id: string;
  site: string;
  kind: string;
  subject: string;
  status: string;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
};

/** Plain words for each outbox state, as the owner reads them. */
export const MAIL_STATE: Record<string, string> = {
  queued: 'Queued: not accepted by a mail server yet',
  sending: 'Being sent',
  sent: 'Sent: accepted by the mail server',
  failed: 'Failed: the mail server refused it after every retry',
  // Cut off after the message may have reached the server: a crash mid-send, or the connection lost (or
  // silent) once the server had the message's end (docs/reliability.md, Mail).
  cancelled: 'Cancelled: not sent, because the person’s data was erased',
  uncertain:
    'Not confirmed: the send was cut off before the mail server answered, so it may or may not have arrived; it is not resent automatically',
};

/** The latest messages of the websites this user owns (newest first). */
export async function outgoingMailOf(db: Db, userId: string, limit = 20): Promise<OutgoingMail[]> {
  const owned = await db
    .select({ id: websites.id, name: websites.name })
    .from(websites)
    .where(inArray(websites.id, ownedWebsiteIds(db, userId)));
  if (owned.length === 0) return [];
  const names = new Map(owned.map((w) => [w.id, w.name]));
  const rows = await db
    .select({
      id: mailOutbox.id,
      websiteId: mailOutbox.websiteId,
      kind: mailOutbox.kind,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.websiteId, [...names.keys()]))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
  return rows.map(({ websiteId, ...r }) => ({ ...r, site: names.get(websiteId ?? '') ?? '' }));
}
