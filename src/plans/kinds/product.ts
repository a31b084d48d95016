// Plan kind `publish_product` (SPEC §4.5): a 5-minute plan for one exact product revision; after the
// owner's approval confirm_pending_action makes that product public.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../../db/schema.js';
import type { SiteCtx } from '../../domain/context.js';
import { Refusal, notFound } from '../../kernel/errors.js';
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

/** A product of the context's website (locked), or the one not_found for missing and foreign ids. */
async function productOf(ctx: SiteCtx, productId: string) {
  const [row] = await ctx.tx
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound('product');
  return row;
}

/** The product revision: its counter plus a fingerprint of what customers would see. */
function revisionOf(p: typeof products.$inferSelect): string {
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
  revision: async (ctx, s) => revisionOf(await productOf(ctx, s.productId)),
  review: (s) => ({
    title: `Make the product "${s.name}" public`,
    facts: [
      { label: 'Product', value: s.name },
      { label: 'Price', value: money(s.priceCents, s.currency) },
      { label: 'Description', value: s.description || '(none)' },
      { label: 'Revision', value: String(s.revision) },
    ],
  }),
  async execute(ctx, s) {
    await ctx.tx
      .update(products)
      .set({ status: 'public', publishedRevision: s.revision, updatedAt: ctx.now })
      .where(and(eq(products.id, s.productId), eq(products.websiteId, ctx.website.id)));
    return { productId: s.productId, status: 'public', publishedRevision: s.revision };
  },
});

export async function preparePublishProduct(ctx: SiteCtx, productId: string): Promise<PlanTicket> {
  const p = await productOf(ctx, productId);
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
