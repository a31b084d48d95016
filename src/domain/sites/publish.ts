// Turning the draft into the published snapshot, and taking the site offline. Called by the
// reviewed-plan executors (never directly by a tool: R-TOOL-5).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { websites } from '../../db/schema.js';

/** The snapshot a publish made, named as the live site names it (src/domain/sites/view.ts). */
export type Published = { rev: number; pages: number };

/**
 * The draft becomes the live snapshot in one statement: the database builds the snapshot from the
 * pages and sections (the shape of `PublishedSnapshot`, as `loadDraft` reads the draft), so a publish
 * of a 2,000-page site never brings the site into the process. The row is locked by the update itself.
 */
export async function publishDraft(tx: Db, websiteId: string, now: Date): Promise<Published> {
  const result = (await tx.execute(sql`
    update ${websites} w set
      published = jsonb_build_object('rev', w.draft_rev, 'pages', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'id', p.id, 'slug', p.slug, 'title', p.title, 'kind', p.kind, 'excerpt', p.excerpt,
                 'createdAt', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'seoTitle', p.seo_title, 'seoDescription', p.seo_description,
                 'sections', coalesce((
                   select jsonb_agg(jsonb_build_object(
                            'id', s.id, 'type', s.type, 'content', s.content, 'layout', s.layout,
                            'hidden', s.hidden) order by s.position)
                   from sections s where s.page_id = p.id), '[]'::jsonb))
               order by p.position, p.created_at)
        from pages p where p.website_id = w.id), '[]'::jsonb)),
      published_rev = w.draft_rev, published_at = ${now.toISOString()}::timestamptz,
      updated_at = ${now.toISOString()}::timestamptz
    where w.id = ${websiteId}
    returning w.draft_rev as rev, jsonb_array_length(w.published->'pages') as pages`)) as unknown as {
    rows: Array<{ rev: number; pages: number }>;
  };
  const row = result.rows[0];
  if (!row) throw new Error(`website ${websiteId} vanished`);
  return { rev: Number(row.rev), pages: Number(row.pages) };
}

/** Offline at once; `publishedAt` keeps when it was last live, so the owner's pages can say it is offline. */
export async function unpublishSite(tx: Db, websiteId: string, now: Date): Promise<void> {
  await tx
    .update(websites)
    .set({ published: null, publishedRev: null, updatedAt: now })
    .where(eq(websites.id, websiteId));
}
