// get_commerce_overview: counts of services, products, open documents and this week's bookings, without
// personal data.
import { expect, it } from 'vitest';
import { documents, products, services } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('get_commerce_overview'));

it('counts what is stored, without personal data', async () => {
  const w = await kit.workspace();
  const site = w.websites.main;
  await kit.db.insert(services).values([
    { id: newId('svc'), websiteId: site, name: 'Bread workshop', status: 'public' },
    { id: newId('svc'), websiteId: site, name: 'Cake tasting' },
  ]);
  await kit.db.insert(products).values([
    { id: newId('prod'), websiteId: site, name: 'Loaf', priceCents: 650, status: 'public' },
    { id: newId('prod'), websiteId: site, name: 'Gift card', priceCents: 2500 },
    { id: newId('prod'), websiteId: w.websites.events, name: 'Elsewhere', priceCents: 1 },
  ]);
  const doc = (kind: string, number: string, status: string) => ({
    id: newId('doc'),
    websiteId: site,
    kind,
    number,
    status,
    recipientName: 'Pat Customer',
    recipientEmail: 'pat@example.com',
    lines: [{ description: 'Box', quantity: 1, unitPriceCents: 100 }],
    totalCents: 100,
  });
  await kit.db
    .insert(documents)
    .values([
      doc('invoice', 'INV-1', 'draft'),
      doc('invoice', 'INV-2', 'sent'),
      doc('invoice', 'INV-3', 'paid'),
      doc('quote', 'Q-1', 'draft'),
    ]);
  const r = await kit.call(w.tokens.all, 'get_commerce_overview');
  expect(r.ok).toBe(true);
  expect(r.data!.services).toEqual({ draft: 1, public: 1, total: 2 });
  expect(r.data!.products).toEqual({ draft: 1, public: 1, total: 2 });
  expect(r.data!.openDocuments).toEqual([
    { kind: 'invoice', status: 'draft', count: 1 },
    { kind: 'invoice', status: 'sent', count: 1 },
    { kind: 'quote', status: 'draft', count: 1 },
  ]);
  expect(r.data!.documentsWithheld).toBe(false);
  expect(JSON.stringify(r.data)).not.toMatch(/@|Pat|INV-|Loaf|workshop/);
});

it('refuses a connection without commerce:write', async () => {
  const w = await kit.workspace();
  const r = await kit.expectRefusal(
    'scope_missing',
    () => kit.call(w.tokens.default, 'get_commerce_overview'),
    { tool: 'get_commerce_overview', companyIds: [w.companyId] },
  );
  expect(r.data).toBeUndefined();
});
