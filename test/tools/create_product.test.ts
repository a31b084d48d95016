// create_product: a draft product at revision 1, never public until the owner approves a publish plan.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { products } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('create_product'));

it('stores a draft product at revision 1, never public', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.all, 'create_product', { name: 'Rye loaf', priceCents: 550 });
  expect(r.data).toMatchObject({ status: 'draft', revision: 1, publishedRevision: null, currency: 'EUR' });
  const [row] = await kit.db.select().from(products).where(eq(products.id, r.data!.productId));
  expect(row).toMatchObject({
    websiteId: w.websites.main,
    name: 'Rye loaf',
    priceCents: 550,
    status: 'draft',
    revision: 1,
    publishedRevision: null,
  });
});

it('refuses invalid drafts and a connection without commerce:write, writing nothing', async () => {
  const w = await kit.workspace();
  const opts = { tool: 'create_product', companyIds: [w.companyId] as [string] };
  for (const args of [
    { name: 'No price' },
    { name: 'Neg', priceCents: -1 },
    { name: 'Float', priceCents: 1.5 },
    { name: 'Cur', priceCents: 1, currency: 'euro' },
    { name: '   ', priceCents: 1 },
    { name: 'Public', priceCents: 1, status: 'public' },
  ]) {
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.all, 'create_product', args), opts);
  }
  await kit.expectRefusal(
    'scope_missing',
    () => kit.call(w.tokens.default, 'create_product', { name: 'A', priceCents: 1 }),
    opts,
  );
});
