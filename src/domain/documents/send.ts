// Invoices and quotes (R-DOC-1, R-PLAN-8): listing never-sent drafts without customer contact details,
// the whole-row fingerprint the send is pinned to (documents have no updatedAt), and the send itself —
// the document mailed to its recipient through the outbox, in the transaction that marks it sent.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { type DocumentLine, documents } from '../../db/schema.js';
import { sha256OfCanonicalJson } from '../../kernel/fingerprint.js';
import { escapeHtml } from '../../kernel/html.js';
import type { DirectSiteCtx, SiteCtx } from '../context.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { queueMail } from '../mail/outbox.js';
import { money } from '../money.js';
import { websiteRowOf } from '../sites/row.js';

export type DocumentRow = typeof documents.$inferSelect;

export async function listSendableDocuments(ctx: DirectSiteCtx) {
  const rows = await ctx.db
    .select()
    .from(documents)
    .where(
      and(eq(documents.websiteId, ctx.website.id), eq(documents.status, 'draft'), isNull(documents.sentAt)),
    )
    .orderBy(asc(documents.createdAt));
  // No recipient name or address: the agent needs the id, the number and the amount, nothing personal.
  return rows.map((d) => ({
    documentId: d.id,
    kind: d.kind,
    number: d.number,
    lines: d.lines.length,
    totalCents: d.totalCents,
    currency: d.currency,
    dueAt: d.dueAt?.toISOString() ?? null,
  }));
}

/** A document of the context's website, locked until commit; the one not_found for foreign ids. */
export async function documentOf(ctx: SiteCtx, documentId: string): Promise<DocumentRow> {
  const [row] = await ctx.tx
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound('document');
  return row;
}

/** The reviewed revision of a document: a fingerprint of the whole stored row. */
export function documentFingerprint(row: DocumentRow): string {
  return `document:${sha256OfCanonicalJson(row)}`;
}

export function assertSendable(row: DocumentRow): void {
  if (row.status !== 'draft' || row.sentAt !== null) {
    throw new Refusal('conflict', `This ${row.kind} is not a never-sent draft, so it cannot be sent again.`);
  }
}

/** What the email is made from: the stored document's customer-facing fields. */
export type DocumentContent = Pick<
  DocumentRow,
  'kind' | 'number' | 'recipientName' | 'recipientEmail' | 'lines' | 'currency' | 'totalCents' | 'dueAt'
>;

/** The document itself as HTML (the attachment) and as plain text (the body). */
function renderDocument(d: DocumentContent, sender: string) {
  const title = `${d.kind === 'invoice' ? 'Invoice' : 'Quote'} ${d.number}`;
  const line = (l: DocumentLine) =>
    `${l.quantity} × ${l.description} @ ${money(l.unitPriceCents, d.currency)} = ${money(l.quantity * l.unitPriceCents, d.currency)}`;
  const text = [
    `${title} from ${sender}`,
    `To: ${d.recipientName}`,
    '',
    ...d.lines.map(line),
    '',
    `Total: ${money(d.totalCents, d.currency)}`,
    d.dueAt ? `Due: ${d.dueAt.toISOString().slice(0, 10)}` : '',
  ].join('\n');
  const rows = d.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td>${l.quantity}</td><td>${escapeHtml(money(l.unitPriceCents, d.currency))}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>From ${escapeHtml(sender)} to ${escapeHtml(d.recipientName)}</p><table><tr><th>Item</th><th>Qty</th><th>Unit price</th></tr>${rows}</table><p><strong>Total: ${escapeHtml(money(d.totalCents, d.currency))}</strong></p>`;
  return { title, text, html };
}

/** The exact email a send delivers: the approval page shows this, the send queues this. */
export function documentEmail(d: DocumentContent, sender: string) {
  const { title, text, html } = renderDocument(d, sender);
  return {
    to: d.recipientEmail,
    subject: `${title} from ${sender}`,
    text,
    html,
    attachments: [{ filename: `${d.number}.html`, content: html }],
  };
}

/** Marks the document sent and queues the email carrying it, in the caller's transaction. */
export async function sendDocument(ctx: SiteCtx, documentId: string) {
  const d = await documentOf(ctx, documentId);
  assertSendable(d);
  const { name } = await websiteRowOf(ctx);
  const mailId = await queueMail(
    ctx.tx,
    { websiteId: ctx.website.id, kind: 'document', ...documentEmail(d, name) },
    ctx.now,
  );
  await ctx.tx
    .update(documents)
    .set({ status: 'sent', sentAt: ctx.now })
    .where(and(eq(documents.id, d.id), eq(documents.status, 'draft')));
  return { documentId: d.id, kind: d.kind, number: d.number, status: 'sent', sentAt: ctx.now, mailId };
}
