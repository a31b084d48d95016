// The brand of a website and the workspace's Company Memory.
import { asc, eq } from 'drizzle-orm';
import { brands, companyMemory } from '../../db/schema.js';
import type { DirectSiteCtx } from '../context.js';

export async function getBrand(ctx: DirectSiteCtx) {
  const [brand] = await ctx.db.select().from(brands).where(eq(brands.websiteId, ctx.website.id));
  const memory = await ctx.db
    .select({ fact: companyMemory.fact })
    .from(companyMemory)
    .where(eq(companyMemory.companyId, ctx.website.companyId))
    .orderBy(asc(companyMemory.createdAt));
  return {
    palette: brand?.palette ?? {},
    fonts: brand?.fonts ?? {},
    style: brand?.style ?? '',
    voice: brand?.voice ?? '',
    logoAssetId: brand?.logoAssetId ?? null,
    companyMemory: memory.map((m) => m.fact),
  };
}
