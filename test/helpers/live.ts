// The live site of a website as the database holds it (a row per page, src/domain/sites/publish.ts),
// read straight from the tables, not through a process's parsed copy.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import type { PublishedSnapshot } from '../../src/db/page-shape.js';
import { publishedPageDigests, websites } from '../../src/db/schema.js';

/** The live revision and its pages in order; null while the site is not live. */
export async function liveSnapshot(db: Db, websiteId: string): Promise<PublishedSnapshot | null> {
  const [site] = await db
    .select({ rev: websites.publishedRev })
    .from(websites)
    .where(eq(websites.id, websiteId));
  const rows = await db
    .select({ page: publishedPageDigests.page })
    .from(publishedPageDigests)
    .where(eq(publishedPageDigests.websiteId, websiteId))
    .orderBy(asc(publishedPageDigests.position));
  if (site?.rev == null) {
    if (rows.length) throw new Error(`website ${websiteId} is offline but has ${rows.length} live pages`);
    return null;
  }
  return { rev: site.rev, pages: rows.map((r) => r.page) };
}
