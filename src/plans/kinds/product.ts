// Plan kind `publish_product` (R-PLAN-7): a 5-minute plan for one exact product revision; after the
// owner's approval confirm_pending_action makes that product public.
import { and, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { pendingActions } from '../../db/schema.js';
import type { SiteCtx } from '../../domain/context.js';
import { type ProductRow, lockProduct, makeProductPublic } from '../../domain/commerce/catalogue.js';
import { Refusal } from '../../kernel/errors.js';
import { sha256OfCanonicalJson } from '../../kernel/fingerprint.js';
import { money } from '../../domain/money.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';

const ProductSubject = z.object({
  productId: z.string(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number(),
  currency: z.string(),
  revision: z.number(),
});
type ProductSubject = z.infer<typeof ProductSubject>;

/** The product revision: its counter plus a fingerprint of what customers would see. */
function revisionOf(p: ProductRow): string {
  const seen = { name: p.name, description: p.description, priceCents: p.priceCents, currency: p.currency };
  return `product:${p.revision}:${p.status}:${sha256OfCanonicalJson(seen)}`;
}

export const publishProductKind = defineKind<ProductSubject>({
  kind: 'publish_product',
  rule: {
    name: 'confirm_pending_action (publish product)',
    scope: 'commerce:write',
    area: 'commerce',
    role: 'editor',
  },
  subject: ProductSubject,
  revision: async (ctx, s) => revisionOf(await lockProduct(ctx, s.productId)),
  review: (s) => ({
    title: `Make the product "${s.name}" public`,
    facts: [
      { label: 'Product', value: s.name },
      { label: 'Price', value: money(s.priceCents, s.currency) },
      { label: 'Description', value: s.description || '(none)' },
      { label: 'Revision', value: String(s.revision) },
      {
        label: 'What happens',
        value:
          'Customers can see and buy this product at this price. A later edit of the product needs a new approval.',
      },
    ],
    product: { name: s.name, price: money(s.priceCents, s.currency), description: s.description },
  }),
  async execute(ctx, s) {
    await makeProductPublic(ctx, s.productId, s.revision);
    return { productId: s.productId, status: 'public', publishedRevision: s.revision };
  },
});

export async function preparePublishProduct(ctx: SiteCtx, productId: string): Promise<PlanTicket> {
  const p = await lockProduct(ctx, productId);
  if (p.status === 'public' && p.publishedRevision === p.revision) {
    throw new Refusal('conflict', 'This revision of the product is already public.');
  }
  const subject: ProductSubject = {
    productId: p.id,
    name: p.name,
    description: p.description,
    priceCents: p.priceCents,
    currency: p.currency,
    revision: p.revision,
  };
  return createPlan(ctx, 'publish_product', {
    subject,
    pinnedRevision: revisionOf(p),
    summary: `Make the product "${p.name}" (revision ${p.revision}, ${money(p.priceCents, p.currency)}) public.`,
  });
}

/**
 * The publish-product plans still waiting for the owner on the context's website, by product: the
 * owner's products page links each product to its plan's approval page.
 */
export async function pendingProductPlans(ctx: SiteCtx): Promise<Map<string, string>> {
  const rows = await ctx.tx
    .select({ id: pendingActions.id, subject: pendingActions.subject })
    .from(pendingActions)
    .where(
      and(
        eq(pendingActions.websiteId, ctx.website.id),
        eq(pendingActions.kind, 'publish_product'),
        eq(pendingActions.status, 'pending'),
        gt(pendingActions.expiresAt, ctx.now),
      ),
    );
  return new Map(rows.map((r) => [String(r.subject.productId), r.id]));
}
