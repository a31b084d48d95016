// The published snapshot of one website as the public content API serves it (R-AUTH-6).
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { websites } from '../../db/schema.js';

export async function publishedSite(db: Db, websiteId: string) {
  const [row] = await db
    .select({
      id: websites.id,
      name: websites.name,
      snapshot: websites.published,
      publishedAt: websites.publishedAt,
    })
    .from(websites)
    .where(and(eq(websites.id, websiteId), isNull(websites.deletedAt)));
  return row ?? null;
}
