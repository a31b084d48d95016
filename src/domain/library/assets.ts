// Library asset rows: the one path that adds images to a website's library (generate_image, import_site
// and its merges, migrate_site_from_url), and the look-up a re-import uses to reuse an asset it already
// brought in. The bytes are in the blob store (blobs.ts) before a row naming them is written.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { assets } from '../../db/schema.js';

export type NewAssetRow = Omit<typeof assets.$inferInsert, 'websiteId'>;

/** Adds the rows to the website's library, in batches of 500, in the caller's transaction. */
export async function insertAssets(tx: Db, websiteId: string, rows: readonly NewAssetRow[]): Promise<void> {
  const all = rows.map((r) => ({ ...r, websiteId }));
  for (let i = 0; i < all.length; i += 500) await tx.insert(assets).values(all.slice(i, i + 500));
}

/** The website's assets with these bytes, by hash (sha256 -> asset id). */
export async function assetsByHash(
  tx: Db,
  websiteId: string,
  shas: readonly string[],
): Promise<Map<string, string>> {
  if (shas.length === 0) return new Map();
  const rows = await tx
    .select({ id: assets.id, sha: assets.sha256 })
    .from(assets)
    .where(and(eq(assets.websiteId, websiteId), inArray(assets.sha256, [...shas])));
  return new Map(rows.map((r) => [r.sha, r.id]));
}

/** The website's images, newest first, at most `limit`: what an image field may be chosen from. */
export async function libraryImages(tx: Db, websiteId: string, limit = 200) {
  return tx
    .select({
      id: assets.id,
      mime: assets.mime,
      width: assets.width,
      height: assets.height,
      source: assets.source,
      prompt: assets.prompt,
    })
    .from(assets)
    .where(and(eq(assets.websiteId, websiteId), eq(assets.kind, 'image')))
    .orderBy(desc(assets.createdAt), desc(assets.id))
    .limit(limit);
}
