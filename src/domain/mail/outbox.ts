// The mail outbox (R-REL-2): a message is written in the same transaction as the action that
// causes it, so it exists exactly when the action committed. Delivery (mailer.ts) happens afterwards.
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import { mailOutbox } from '../../db/schema.js';

export type OutgoingMail = {
  websiteId: string | null;
  kind: 'invitation' | 'document' | 'lead' | 'booking_request' | 'booking' | 'plan';
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where a reply goes, when not to the sender. */
  replyTo?: string;
  attachments?: Array<{ filename: string; content: string }>;
};

export async function queueMail(tx: Db, mail: OutgoingMail, now: Date): Promise<string> {
  const id = newId('mail');
  await tx.insert(mailOutbox).values({
    id,
    websiteId: mail.websiteId,
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    replyTo: mail.replyTo ?? null,
    attachments: mail.attachments ?? null,
    status: 'queued',
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}
