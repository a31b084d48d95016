// generate_image (SPEC §4.5 rule 6): one brand-consistent image into the website's library; touches
// no page. Credits and consent, step by step, with no transaction open across the provider call
// (the tool runs with transaction: false, so a slow provider never holds database locks):
//  1. re-read the workspace's AI consent and balance (refuse ai_consent_required / insufficient_credits
//     before any provider call);
//  2. reserve the cost atomically: UPDATE companies SET credits = credits - n
//     WHERE id = ? AND credits >= n AND ai_consent — the balance can never go negative, and of two
//     concurrent calls with credit for one, exactly one reserves;
//  3. call the provider; on any failure (outage, timeout, bad answer) refund the reservation, so an
//     outage costs nothing;
//  4. store the bytes (content-addressed) and the asset row; on failure refund.
// The reservation becomes the charge only once the image is delivered and stored. If the process
// dies between 2 and 3/4, the reserved credit is lost (there is no reservation ledger yet).
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { newId } from '../../kernel/ids.js';
import { assets, brands, companies, companyMemory } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { Refusal } from '../../kernel/errors.js';
import type { Aspect, BrandInput } from './brand-image.js';

export const IMAGE_CREDITS = 1;

const noConsent = () =>
  new Refusal(
    'ai_consent_required',
    'This workspace has not agreed to AI image generation, so no image was made and nothing was charged.',
    'The owner can give AI consent in the app’s settings.',
  );
const noCredits = (have: number) =>
  new Refusal(
    'insufficient_credits',
    `An image costs ${IMAGE_CREDITS} credit(s); this workspace has ${have}. No image was made and nothing was charged.`,
    'The owner can add credits in the app.',
  );

async function brandInput(ctx: SiteCtx): Promise<BrandInput> {
  const [b] = await ctx.tx.select().from(brands).where(eq(brands.websiteId, ctx.website.id));
  const mem = await ctx.tx
    .select({ fact: companyMemory.fact })
    .from(companyMemory)
    .where(eq(companyMemory.companyId, ctx.website.companyId))
    .orderBy(asc(companyMemory.createdAt));
  return {
    palette: b?.palette ?? {},
    fonts: b?.fonts ?? {},
    style: b?.style ?? '',
    memory: mem.map((m) => m.fact),
  };
}

export async function generateImage(ctx: SiteCtx, input: { prompt: string; aspect: Aspect }) {
  const db = ctx.services.db;
  const companyId = ctx.website.companyId;
  const [co] = await db
    .select({ consent: companies.aiConsent, credits: companies.credits })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!co?.consent) throw noConsent();
  if (co.credits < IMAGE_CREDITS) throw noCredits(co.credits);
  const brand = await brandInput(ctx);

  const reserved = await db
    .update(companies)
    .set({ credits: sql`${companies.credits} - ${IMAGE_CREDITS}` })
    .where(
      and(eq(companies.id, companyId), gte(companies.credits, IMAGE_CREDITS), eq(companies.aiConsent, true)),
    )
    .returning({ credits: companies.credits });
  if (!reserved.length) {
    const [now] = await db
      .select({ consent: companies.aiConsent, credits: companies.credits })
      .from(companies)
      .where(eq(companies.id, companyId));
    throw now?.consent ? noCredits(now.credits) : noConsent();
  }
  const refund = () =>
    db
      .update(companies)
      .set({ credits: sql`${companies.credits} + ${IMAGE_CREDITS}` })
      .where(eq(companies.id, companyId));

  try {
    const image = await ctx.services.images.generate({ prompt: input.prompt, aspect: input.aspect, brand });
    const sha256 = await ctx.services.blobs.put(image.bytes);
    const assetId = newId('asset');
    await db.insert(assets).values({
      id: assetId,
      websiteId: ctx.website.id,
      kind: 'image',
      mime: image.mime,
      bytes: image.bytes.byteLength,
      width: image.width,
      height: image.height,
      sha256,
      source: 'generated',
      prompt: input.prompt,
      createdAt: ctx.now,
    });
    return {
      assetId,
      mime: image.mime,
      width: image.width,
      height: image.height,
      creditsSpent: IMAGE_CREDITS,
      creditsLeft: reserved[0]!.credits,
    };
  } catch (err) {
    await refund();
    throw err;
  }
}
