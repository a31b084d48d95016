// The live site of one website as the public content API serves it (R-AUTH-6): the same parsed pages
// a page view reads (src/domain/sites/view.ts).
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { PublishedSnapshot } from '../../db/page-shape.js';
import { websites } from '../../db/schema.js';
import { publishedPages } from './view.js';

export async function publishedSite(db: Db, websiteId: string) {
  const [row] = await db
    .select({
      id: websites.id,
      name: websites.name,
      rev: websites.publishedRev,
      publishedAt: websites.publishedAt,
    })
    .from(websites)
    .where(and(eq(websites.id, websiteId), isNull(websites.deletedAt)));
  if (!row) return null;
  const pages = row.rev === null ? null : await publishedPages(db, websiteId, row.rev, row.publishedAt);
  const snapshot: PublishedSnapshot | null = row.rev !== null && pages ? { rev: row.rev, pages } : null;
  return { id: row.id, name: row.name, publishedAt: row.publishedAt, snapshot };
}
