// list_sendable_documents: never-sent draft invoices and quotes, without customer contact details.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies, documents } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { type Workspace, toolKit } from './kit.js';

const kit = toolKit();

async function addDocuments(w: Workspace) {
  const doc = (number: string, status: string) => ({
    id: newId('doc'),
    websiteId: w.websites.main,
    kind: number.startsWith('Q') ? 'quote' : 'invoice',
    number,
    status,
    recipientName: 'Pat Customer',
    recipientEmail: 'pat@example.com',
    lines: [
      { description: 'Breakfast box', quantity: 2, unitPriceCents: 4500 },
      { description: 'Delivery', quantity: 1, unitPriceCents: 1000 },
    ],
    totalCents: 10_000,
    ...(status === 'sent' ? { sentAt: new Date() } : {}),
  });
  const rows = [doc('INV-14', 'draft'), doc('Q-7', 'draft'), doc('INV-13', 'sent')];
  await kit.db.insert(documents).values(rows);
  return rows;
}

it('matches its contract snapshot', () => kit.expectContract('list_sendable_documents'));

it('lists the never-sent drafts with their ids and no customer contact details', async () => {
  const w = await kit.workspace();
  const [inv, quote] = await addDocuments(w);
  const r = await kit.call(w.tokens.all, 'list_sendable_documents');
  expect(r.ok).toBe(true);
  expect(
    r.data!.documents.sort((a: { number: string }, b: { number: string }) =>
      a.number.localeCompare(b.number),
    ),
  ).toEqual([
    {
      documentId: inv!.id,
      kind: 'invoice',
      number: 'INV-14',
      lines: 2,
      totalCents: 10_000,
      currency: 'EUR',
      dueAt: null,
    },
    {
      documentId: quote!.id,
      kind: 'quote',
      number: 'Q-7',
      lines: 2,
      totalCents: 10_000,
      currency: 'EUR',
      dueAt: null,
    },
  ]);
  expect(r.text).not.toMatch(/@|Pat Customer|recipient/i);
});

it('is refused when the agency withholds invoicing', async () => {
  const w = await kit.workspace();
  await addDocuments(w);
  await kit.db
    .update(companies)
    .set({ withheldAreas: ['invoicing'] })
    .where(eq(companies.id, w.companyId));
  const r = await kit.expectRefusal(
    'area_disabled',
    () => kit.call(w.tokens.all, 'list_sendable_documents'),
    {
      tool: 'list_sendable_documents',
      companyIds: [w.companyId],
    },
  );
  expect(r.error).toMatchObject({ code: 'area_disabled', message: expect.stringMatching(/invoicing area/) });
  expect(r.text).not.toMatch(/INV-14/);
});
