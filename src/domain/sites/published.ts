// The published snapshot of one website as the public content API serves it (SPEC §5 rule 2).
import { eq } from 'drizzle-orm';
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
    .where(eq(websites.id, websiteId));
  return row ?? null;
}
