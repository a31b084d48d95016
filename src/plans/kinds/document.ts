// Plan kind `send_document` (R-PLAN-8): sending a never-sent invoice or quote. The reviewed revision is
// a fingerprint of the whole stored row, so any edit after review (price, line, recipient, status)
// refuses the send and needs a fresh review.
import { z } from 'zod';
import {
  assertSendable,
  documentEmail,
  documentFingerprint,
  documentOf,
  sendDocument,
} from '../../domain/documents/send.js';
import type { SiteCtx } from '../../domain/context.js';
import { money } from '../../domain/money.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';
import { plural } from '../../kernel/plural.js';

const DocumentSubject = z.object({
  documentId: z.string(),
  kind: z.string(),
  number: z.string(),
  recipientName: z.string(),
  recipientEmail: z.string(),
  lines: z.array(z.object({ description: z.string(), quantity: z.number(), unitPriceCents: z.number() })),
  currency: z.string(),
  totalCents: z.number(),
  /** ISO date; absent in plans made before it was recorded. */
  dueAt: z.string().nullable().optional(),
});
type DocumentSubject = z.infer<typeof DocumentSubject>;

function emailOf(s: DocumentSubject, sender: string) {
  const mail = documentEmail({ ...s, dueAt: s.dueAt ? new Date(s.dueAt) : null }, sender);
  return { to: mail.to, subject: mail.subject, text: mail.text };
}

export const sendDocumentKind = defineKind<DocumentSubject>({
  kind: 'send_document',
  rule: {
    name: 'confirm_pending_action (send document)',
    scope: 'communications:write',
    area: 'invoicing',
    role: 'editor',
  },
  subject: DocumentSubject,
  revision: async (ctx, s) => documentFingerprint(await documentOf(ctx, s.documentId)),
  review: (s, info) => ({
    email: emailOf(s, info.siteName),
    title: `Send ${s.kind} ${s.number}`,
    facts: [
      { label: 'Recipient', value: `${s.recipientName} <${s.recipientEmail}>` },
      { label: 'Document', value: `${s.kind} ${s.number}` },
      { label: 'Total', value: money(s.totalCents, s.currency) },
    ],
    table: {
      columns: ['Item', 'Quantity', 'Unit price', 'Amount'],
      rows: s.lines.map((l) => [
        l.description,
        String(l.quantity),
        money(l.unitPriceCents, s.currency),
        money(l.quantity * l.unitPriceCents, s.currency),
      ]),
      footer: ['Total', '', '', money(s.totalCents, s.currency)],
    },
  }),
  async execute(ctx, s) {
    const sent = await sendDocument(ctx, s.documentId);
    const mail = ctx.services.mail;
    if (mail) ctx.afterCommit?.(() => mail.deliverNow([sent.mailId]));
    // The email leaves after the commit: until the mail server accepts it, it is only queued (R-REL-2). The
    // owner's home page shows its real state (queued, sent, failed, uncertain).
    return {
      documentId: sent.documentId,
      number: sent.number,
      status: 'queued' as const,
      queuedAt: sent.sentAt.toISOString(),
      mail: mail?.enabled
        ? 'The email is queued and leaves now; the owner’s home page shows when the mail server accepted it.'
        : 'The email is queued, but this server has no mail server configured (SMTP_URL): it has not left.',
    };
  },
});

export async function prepareSendDocument(ctx: SiteCtx, documentId: string): Promise<PlanTicket> {
  const d = await documentOf(ctx, documentId);
  assertSendable(d);
  const subject: DocumentSubject = {
    documentId: d.id,
    kind: d.kind,
    number: d.number,
    recipientName: d.recipientName,
    recipientEmail: d.recipientEmail,
    lines: d.lines,
    currency: d.currency,
    totalCents: d.totalCents,
    dueAt: d.dueAt?.toISOString() ?? null,
  };
  return createPlan(ctx, 'send_document', {
    subject,
    pinnedRevision: documentFingerprint(d),
    // No recipient details in what the caller gets back: the owner sees them on the approval page.
    summary: `Send ${d.kind} ${d.number} (${plural(d.lines.length, 'line')}, total ${money(d.totalCents, d.currency)}) to its recipient.`,
  });
}
