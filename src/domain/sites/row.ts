// A website's own row, for the tools that show or use its name, revisions or settings. The gate hands
// over only who the website is (SiteRef), because its facts are kept across content writes and these
// columns change with each of them; this read is in the call's transaction when it has one.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { fixedSelect } from '../../db/named.js';
import { websites } from '../../db/schema.js';
import { notFound } from '../../kernel/errors.js';
import { type AnySiteCtx, dbOf } from '../context.js';

export type WebsiteRow = typeof websites.$inferSelect;

const websiteColumns = getTableColumns(websites);

// A fixed statement: built once, and planned once per connection (src/db/named.ts).
const websiteRow = fixedSelect('sitegate_website_row', (db) =>
  db
    .select(websiteColumns)
    .from(websites)
    .where(eq(websites.id, sql.placeholder('id'))),
);

/** The context's website as it is now (in the call's transaction, when there is one). */
export async function websiteRowOf(ctx: AnySiteCtx): Promise<WebsiteRow> {
  const [row] = await websiteRow(dbOf(ctx), { id: ctx.website.id });
  // The gate found it in this call; only a deletion committed since could make it vanish.
  if (!row) throw notFound('website');
  return row;
}
