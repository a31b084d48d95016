// list_products: the website's products with status, price and revision.
import { expect, it } from 'vitest';
import { products } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_products'));

it("lists this website's products as stored, and no other website's", async () => {
  const w = await kit.workspace();
  const id = newId('prod');
  await kit.db.insert(products).values([
    {
      id,
      websiteId: w.websites.main,
      name: 'Sourdough loaf',
      priceCents: 650,
      status: 'public',
      revision: 2,
      publishedRevision: 1,
    },
    { id: newId('prod'), websiteId: w.websites.events, name: 'Not on this site', priceCents: 1 },
  ]);
  const r = await kit.call(w.tokens.all, 'list_products');
  expect(r.ok).toBe(true);
  expect(r.data!.products).toEqual([
    {
      productId: id,
      name: 'Sourdough loaf',
      description: '',
      priceCents: 650,
      currency: 'EUR',
      status: 'public',
      revision: 2,
      publishedRevision: 1,
    },
  ]);
});

it("refuses another workspace's website as not found", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const r = await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.workspace, 'list_products', { websiteId: w.websites.main }),
    { tool: 'list_products', companyIds: [other.companyId, w.companyId] },
  );
  expect(r.data).toBeUndefined();
});
