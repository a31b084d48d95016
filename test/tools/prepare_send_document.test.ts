// prepare_send_document: a pending plan to email one never-sent invoice or quote, pinned to the whole
// stored document; nothing is sent yet.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { documents, mailOutbox, pendingActions } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

async function draftInvoice(websiteId: string) {
  const [row] = await kit.db
    .insert(documents)
    .values({
      id: newId('doc'),
      websiteId,
      kind: 'invoice',
      number: 'INV-14',
      recipientName: 'Pat Customer',
      recipientEmail: 'pat@example.com',
      lines: [{ description: 'Breakfast box', quantity: 2, unitPriceCents: 4500 }],
      totalCents: 9000,
    })
    .returning();
  return row!;
}

it('matches its contract snapshot', () => kit.expectContract('prepare_send_document'));

it('creates a pending plan pinned to the document, sends nothing and shows no address', async () => {
  const w = await kit.workspace();
  const inv = await draftInvoice(w.websites.main);
  const r = await kit.call(w.tokens.all, 'prepare_send_document', { documentId: inv.id });
  expect(r.ok).toBe(true);
  expect(r.text).not.toMatch(/pat@example\.com|Pat Customer/);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'send_document',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    subject: expect.objectContaining({ documentId: inv.id }),
  });
  expect(plan!.pinnedRevision).toMatch(/^document:[0-9a-f]{64}$/);
  const [after] = await kit.db.select().from(documents).where(eq(documents.id, inv.id));
  expect(after).toEqual(inv);
  const mail = await kit.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.websiteId, w.websites.main), eq(mailOutbox.kind, 'document')));
  expect(mail).toEqual([]);
});

it("gives another workspace's document not_found, planning nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const inv = await draftInvoice(w.websites.main);
  await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.all, 'prepare_send_document', { documentId: inv.id }),
    { tool: 'prepare_send_document', companyIds: [other.companyId, w.companyId] },
  );
});
