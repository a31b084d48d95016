// generate_image (R-IMG-2): one brand-consistent image into the website's library; touches
// no page. Credits and consent, step by step, with no transaction open across the provider call
// (the tool runs with transaction: false, so a slow provider never holds database locks):
//  1. re-read the workspace's AI consent and balance (refuse ai_consent_required / insufficient_credits
//     before any provider call);
//  2. reserve the cost atomically, in one transaction: UPDATE companies SET credits = credits - n
//     WHERE id = ? AND credits >= n AND ai_consent, and INSERT a credit_reservations row — the balance
//     can never go negative, and of two concurrent calls with credit for one, exactly one reserves;
//  3. call the provider; on any failure (outage, timeout, bad answer) release the reservation (delete
//     the row, give the credits back, in one transaction), so an outage costs nothing;
//  4. store the bytes (content-addressed), then in one transaction insert the asset row, delete the
//     reservation and write the call's Activity line: the charge stands exactly when the image is
//     delivered, and never without its line.
// If the process dies in between, the reservation row remains and `settleReservations` (a background
// job; at start on the embedded database, which one process owns) gives the credits back, once: the
// row is deleted in the same transaction as the refund (R-IMG-2). A delivery whose reservation
// was already settled is rolled back rather than delivered free.
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { faultPoint } from '../../kernel/fault.js';
import { newId } from '../../kernel/ids.js';
import { brands, companies, companyMemory, creditReservations } from '../../db/schema.js';
import type { DirectSiteCtx } from '../context.js';
import { Refusal } from '../../kernel/errors.js';
import { insertAssets } from './assets.js';
import type { Aspect, BrandInput } from './brand-image.js';
import { transaction, workspaces } from '../../db/transactions.js';
import { plural } from '../../kernel/plural.js';

const IMAGE_CREDITS = 1;
/** A reservation older than this belongs to a call that died (the provider call times out well before). */
export const RESERVATION_LEASE_MS = 10 * 60_000;

const noConsent = () =>
  new Refusal(
    'ai_consent_required',
    'This workspace has not agreed to AI image generation, so no image was made and nothing was charged.',
    'No tool or page gives this consent: tell the owner that image generation is off for this workspace, and use an image the site already has.',
  );
const noCredits = (have: number) =>
  new Refusal(
    'insufficient_credits',
    `An image costs ${plural(IMAGE_CREDITS, 'credit')}; this workspace has ${have}. No image was made and nothing was charged.`,
    'No tool or page adds credits: tell the owner that the workspace has no image credits left, and use an image the site already has.',
  );

async function brandInput(ctx: DirectSiteCtx): Promise<BrandInput> {
  const [b] = await ctx.db.select().from(brands).where(eq(brands.websiteId, ctx.website.id));
  const mem = await ctx.db
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

export async function generateImage(ctx: DirectSiteCtx, input: { prompt: string; aspect: Aspect }) {
  const db = ctx.services.db;
  const companyId = ctx.website.companyId;
  const [co] = await db
    .select({ consent: companies.aiConsent, credits: companies.credits })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!co?.consent) throw noConsent();
  if (co.credits < IMAGE_CREDITS) throw noCredits(co.credits);
  const brand = await brandInput(ctx);

  const reservationId = newId('rsv');
  const reserved = await transaction(db, workspaces(companyId), async (tx) => {
    const rows = await tx
      .update(companies)
      .set({ credits: sql`${companies.credits} - ${IMAGE_CREDITS}` })
      .where(
        and(
          eq(companies.id, companyId),
          gte(companies.credits, IMAGE_CREDITS),
          eq(companies.aiConsent, true),
        ),
      )
      .returning({ credits: companies.credits });
    if (rows.length === 0) return rows;
    await tx.insert(creditReservations).values({
      id: reservationId,
      companyId,
      credits: IMAGE_CREDITS,
      expiresAt: new Date(ctx.now.getTime() + RESERVATION_LEASE_MS),
      createdAt: ctx.now,
    });
    return rows;
  });
  if (!reserved.length) {
    const [now] = await db
      .select({ consent: companies.aiConsent, credits: companies.credits })
      .from(companies)
      .where(eq(companies.id, companyId));
    throw now?.consent ? noCredits(now.credits) : noConsent();
  }

  let image: Awaited<ReturnType<typeof ctx.services.images.generate>>;
  let sha256: string;
  try {
    image = await ctx.services.images.generate({ prompt: input.prompt, aspect: input.aspect, brand });
    faultPoint('generate-after-provider');
    sha256 = await ctx.services.blobs.put(image.bytes);
  } catch (err) {
    await releaseReservation(db, reservationId, companyId);
    throw err;
  }
  const assetId = newId('asset');
  const answer = {
    assetId,
    mime: image.mime,
    width: image.width,
    height: image.height,
    creditsSpent: IMAGE_CREDITS,
    creditsLeft: reserved[0]!.credits,
  };
  const deliver = transaction(db, workspaces(companyId), async (tx) => {
    // The charge stands only if this call still holds its reservation (not settled meanwhile).
    const held = await tx
      .delete(creditReservations)
      .where(eq(creditReservations.id, reservationId))
      .returning({ id: creditReservations.id });
    if (held.length === 0) throw new Error('credit reservation was settled before delivery');
    await insertAssets(tx, ctx.website.id, [
      {
        id: assetId,
        kind: 'image',
        mime: image.mime,
        bytes: image.bytes.byteLength,
        width: image.width,
        height: image.height,
        sha256,
        source: 'generated',
        prompt: input.prompt,
        createdAt: ctx.now,
      },
    ]);
    // The call's Activity line, with the credits spent, commits with the charge it records.
    await ctx.commitLine?.(tx, answer);
  });
  await deliver.catch(async (err) => {
    await releaseReservation(db, reservationId, companyId);
    throw err;
  });
  faultPoint('after-own-commit');
  return answer;
}

/** Gives a reservation's credits back and deletes it, in one transaction; false if it was already gone. */
async function releaseReservation(db: Db, id: string, companyId: string): Promise<boolean> {
  return transaction(db, workspaces(companyId), async (tx) => {
    const [r] = await tx
      .delete(creditReservations)
      .where(eq(creditReservations.id, id))
      .returning({ companyId: creditReservations.companyId, credits: creditReservations.credits });
    if (!r) return false;
    await tx
      .update(companies)
      .set({ credits: sql`${companies.credits} + ${r.credits}` })
      .where(eq(companies.id, r.companyId));
    return true;
  });
}

/**
 * Refunds reservations whose call died: those past their lease, or all of them when `all` (the embedded
 * database at start: no other process can hold one). Returns how many were refunded.
 */
export async function settleReservations(db: Db, now: Date, all = false): Promise<number> {
  const stale = await db
    .select({ id: creditReservations.id, companyId: creditReservations.companyId })
    .from(creditReservations)
    .where(all ? undefined : lt(creditReservations.expiresAt, now))
    .limit(1000);
  let n = 0;
  for (const { id, companyId } of stale) if (await releaseReservation(db, id, companyId)) n += 1;
  return n;
}
