// prepare_publish_product: a pending plan to make one exact revision of a draft product public; the
// product stays a draft until the plan is carried out.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pendingActions, products } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

async function giftCard(websiteId: string) {
  const [row] = await kit.db
    .insert(products)
    .values({ id: newId('prod'), websiteId, name: 'Gift card', description: 'Any amount.', priceCents: 2500 })
    .returning();
  return row!;
}

it('matches its contract snapshot', () => kit.expectContract('prepare_publish_product'));

it('creates a pending plan for the product at its current revision; it stays a draft', async () => {
  const w = await kit.workspace();
  const gift = await giftCard(w.websites.main);
  const r = await kit.call(w.tokens.all, 'prepare_publish_product', { productId: gift.id });
  expect(r.ok).toBe(true);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'publish_product',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    subject: { productId: gift.id, name: 'Gift card', priceCents: 2500, currency: 'EUR', revision: 1 },
  });
  expect(plan!.pinnedRevision).toMatch(/^product:1:draft:[0-9a-f]{64}$/);
  const [after] = await kit.db.select().from(products).where(eq(products.id, gift.id));
  expect(after).toEqual(gift);
});

it("gives another workspace's product id not_found, and creates no plan", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const gift = await giftCard(w.websites.main);
  await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.all, 'prepare_publish_product', { productId: gift.id }),
    { tool: 'prepare_publish_product', companyIds: [other.companyId, w.companyId] },
  );
});
