// Draft services and products (R-TOOL-9): listing and creating draft records, and
// making one reviewed product revision public. A created record is a draft: it charges no one, sends
// nothing and is not public (a product becomes public only through prepare_publish_product and the
// owner's approval). A new product is revision 1.
import { and, asc, eq } from 'drizzle-orm';
import { newId } from '../../kernel/ids.js';
import { products, services } from '../../db/schema.js';
import { type AnySiteCtx, type SiteCtx, dbOf } from '../context.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';

export type NewService = {
  name: string;
  description?: string;
  priceCents?: number;
  currency?: string;
  durationMinutes?: number;
};
export type NewProduct = { name: string; description?: string; priceCents: number; currency?: string };

const serviceView = (r: typeof services.$inferSelect) => ({
  serviceId: r.id,
  name: r.name,
  description: r.description,
  priceCents: r.priceCents,
  currency: r.currency,
  durationMinutes: r.durationMinutes,
  status: r.status,
});

export type ProductRow = typeof products.$inferSelect;

const productView = (r: ProductRow) => ({
  productId: r.id,
  name: r.name,
  description: r.description,
  priceCents: r.priceCents,
  currency: r.currency,
  status: r.status,
  revision: r.revision,
  publishedRevision: r.publishedRevision,
});

export async function listServices(ctx: AnySiteCtx) {
  const rows = await dbOf(ctx)
    .select()
    .from(services)
    .where(eq(services.websiteId, ctx.website.id))
    .orderBy(asc(services.createdAt), asc(services.id));
  return { services: rows.map(serviceView) };
}

export async function createService(ctx: SiteCtx, input: NewService) {
  const [row] = await ctx.tx
    .insert(services)
    .values({
      id: newId('svc'),
      websiteId: ctx.website.id,
      name: input.name,
      description: input.description ?? '',
      priceCents: input.priceCents ?? null,
      currency: input.currency ?? 'EUR',
      durationMinutes: input.durationMinutes ?? null,
      status: 'draft',
      createdAt: ctx.now,
    })
    .returning();
  return serviceView(row!);
}

export async function listProducts(ctx: AnySiteCtx) {
  const rows = await dbOf(ctx)
    .select()
    .from(products)
    .where(eq(products.websiteId, ctx.website.id))
    .orderBy(asc(products.createdAt), asc(products.id));
  return { products: rows.map(productView) };
}

export async function createProduct(ctx: SiteCtx, input: NewProduct) {
  const [row] = await ctx.tx
    .insert(products)
    .values({
      id: newId('prod'),
      websiteId: ctx.website.id,
      name: input.name,
      description: input.description ?? '',
      priceCents: input.priceCents,
      currency: input.currency ?? 'EUR',
      status: 'draft',
      revision: 1,
      publishedRevision: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  return productView(row!);
}

/** A product of the context's website, locked; a missing and a foreign id are the same not_found. */
export async function lockProduct(ctx: SiteCtx, productId: string): Promise<ProductRow> {
  const [row] = await ctx.tx
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound('product');
  return row;
}

/**
 * Makes one reviewed revision of a product public. Only the approved publish-product plan calls it,
 * after it checked that the product still is at that revision.
 */
export async function makeProductPublic(ctx: SiteCtx, productId: string, revision: number): Promise<void> {
  await ctx.tx
    .update(products)
    .set({ status: 'public', publishedRevision: revision, updatedAt: ctx.now })
    .where(and(eq(products.id, productId), eq(products.websiteId, ctx.website.id)));
}

export type ServiceStatus = 'draft' | 'public';

/**
 * The owner offers a service (status `public`: on the live site's booking pages when it has a
 * duration, in list_offerings, request_booking and search_site for visitors' assistants) or takes it
 * back to a draft. `shown` is the status the owner's page showed: a page that is out of date, or a
 * second owner who acted first, is refused with nothing changed. Human-only: no tool makes a service
 * public.
 */
export async function setServiceStatus(
  ctx: SiteCtx,
  input: { serviceId: string; shown: string; to: ServiceStatus },
) {
  const [row] = await ctx.tx
    .select()
    .from(services)
    .where(and(eq(services.id, input.serviceId), eq(services.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound('service');
  if (row.status !== input.shown) {
    throw new Refusal(
      'conflict',
      `This service changed after your page was shown: it is now ${row.status === 'public' ? 'published' : 'a draft'}.`,
      'Open the services again and decide on what they show now.',
    );
  }
  if (row.status === input.to) {
    throw new Refusal(
      'not_settable',
      `This service is already ${input.to === 'public' ? 'published' : 'a draft'}.`,
    );
  }
  await ctx.tx.update(services).set({ status: input.to }).where(eq(services.id, row.id));
  await recordOwnerAction(
    ctx,
    input.to === 'public' ? 'publish_service' : 'unpublish_service',
    input.to === 'public'
      ? `The owner published the service "${row.name}": visitors and their assistants are offered it.`
      : `The owner took the service "${row.name}" back to a draft: it is no longer offered.`,
  );
  return serviceView({ ...row, status: input.to });
}

/** What the owner's products page showed of a product: its status and revision ("draft:2"). */
export const shownProduct = (p: { status: string; revision: number }) => `${p.status}:${p.revision}`;

/**
 * The owner makes a product public at its current revision, or takes it back to a draft. The owner
 * is the approver here, as in the console's publish: no plan. `shown` is what the owner's page showed
 * (shownProduct): a product changed since (an edit, the agent's approved plan, a second owner) is
 * refused with nothing changed. A pending publish_product plan for it is pinned to the old status and
 * so can no longer be approved. Human-only: no tool calls it.
 */
export async function setProductStatus(
  ctx: SiteCtx,
  input: { productId: string; shown: string; to: ServiceStatus },
) {
  const row = await lockProduct(ctx, input.productId);
  if (shownProduct(row) !== input.shown) {
    throw new Refusal(
      'conflict',
      `This product changed after your page was shown: it is now ${row.status === 'public' ? 'public' : 'a draft'}, revision ${row.revision}.`,
      'Open the products again and decide on what they show now.',
    );
  }
  if (row.status === input.to) {
    throw new Refusal(
      'not_settable',
      `This product is already ${input.to === 'public' ? 'public' : 'a draft'}.`,
    );
  }
  const publishedRevision = input.to === 'public' ? row.revision : null;
  await ctx.tx
    .update(products)
    .set({ status: input.to, publishedRevision, updatedAt: ctx.now })
    .where(eq(products.id, row.id));
  await recordOwnerAction(
    ctx,
    input.to === 'public' ? 'publish_product' : 'unpublish_product',
    input.to === 'public'
      ? `The owner made the product "${row.name}" public (revision ${row.revision}).`
      : `The owner took the product "${row.name}" back to a draft: it is no longer offered.`,
  );
  return productView({ ...row, status: input.to, publishedRevision });
}
