// The one path that inserts pages (create_page, create_blog_post, import_site and its merges,
// migrate_site_from_url, a restore), in batches of 500 rows, in the caller's transaction. The caller
// moves the draft revision on once for the whole change.
import type { Db } from '../../db/client.js';
import { pages } from '../../db/schema.js';

export type NewPageRow = typeof pages.$inferInsert;

export async function insertPages(tx: Db, rows: readonly NewPageRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await tx.insert(pages).values(rows.slice(i, i + 500));
}
