// Delivery tokens (R-AUTH-6): a separate read-only pairing for published content. `sg_dlv_` +
// 32 base62, stored as SHA-256 with a display prefix, created by the website owner; accepted only by
// the content API under /v1/content, never by /api/mcp.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { newId } from '../kernel/ids.js';
import { deliveryTokens } from '../db/schema.js';
import { Refusal, notFound } from '../kernel/errors.js';
import { ownedWebsites } from './owner.js';
import { DELIVERY_PREFIX, mintToken, sha256Hex } from '../kernel/tokens.js';

export type DeliveryTokenRow = typeof deliveryTokens.$inferSelect;
const DELIVERY_RE = /^sg_dlv_[0-9A-Za-z]{32}$/;

export async function createDeliveryToken(db: Db, userId: string, websiteId: string) {
  const sites = await ownedWebsites(db, userId);
  if (!sites.some((s) => s.id === websiteId)) {
    throw new Refusal('owner_only', 'Only the website owner can create a delivery token.');
  }
  const minted = mintToken(DELIVERY_PREFIX);
  const [row] = await db
    .insert(deliveryTokens)
    .values({
      id: newId('dlv'),
      websiteId,
      tokenHash: minted.hash,
      tokenPrefix: minted.display,
      createdBy: userId,
    })
    .returning();
  return { row: row!, token: minted.token };
}

export async function revokeDeliveryToken(db: Db, userId: string, id: string, now: Date) {
  const [row] = await db.select().from(deliveryTokens).where(eq(deliveryTokens.id, id));
  const sites = await ownedWebsites(db, userId);
  if (!row || !sites.some((s) => s.id === row.websiteId)) throw notFound('delivery token');
  await db.update(deliveryTokens).set({ revokedAt: now }).where(eq(deliveryTokens.id, id));
}

export async function listDeliveryTokens(db: Db, websiteIds: string[]): Promise<DeliveryTokenRow[]> {
  if (websiteIds.length === 0) return [];
  return db
    .select()
    .from(deliveryTokens)
    .where(inArray(deliveryTokens.websiteId, websiteIds))
    .orderBy(desc(deliveryTokens.createdAt));
}

/** The website a live delivery token reads, or null. */
export async function websiteForDeliveryToken(db: Db, token: string): Promise<string | null> {
  if (!DELIVERY_RE.test(token)) return null;
  const [row] = await db
    .select({ websiteId: deliveryTokens.websiteId })
    .from(deliveryTokens)
    .where(and(eq(deliveryTokens.tokenHash, sha256Hex(token)), isNull(deliveryTokens.revokedAt)));
  return row?.websiteId ?? null;
}
