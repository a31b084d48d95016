// Turning the draft into the live site, and taking the site offline. Called by the reviewed-plan
// executors and the site's deletion (never directly by a tool: R-TOOL-5).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  draftTouchedPages,
  publishedPageDigests,
  publishedSectionDigests,
  websites,
} from '../../db/schema.js';
import { pagesToPublish } from './digest.js';

/** What a publish made live, named as the live site names it (src/domain/sites/view.ts). */
export type Published = { rev: number; pages: number };

/**
 * The draft becomes the live site. The live site is kept a row per page (published_page_digests, with
 * the page and its sections as `loadDraft` reads them) and a row per section digest: only the pages
 * written since the last publish (`pagesToPublish`) are written, the pages gone from the draft removed and
 * the others renumbered where they moved, so a publish of one change on a 2,000-page site writes one
 * page. The website row is locked first (the lock order, docs/reliability.md): a draft write waits for
 * the copy to commit and lands in the next revision.
 */
export async function publishDraft(tx: Db, websiteId: string, now: Date): Promise<Published> {
  const [site] = await tx
    .update(websites)
    .set({ publishedRev: sql`${websites.draftRev}`, publishedAt: now, updatedAt: now })
    .where(eq(websites.id, websiteId))
    .returning({ rev: websites.draftRev });
  if (!site) throw new Error(`website ${websiteId} vanished`);
  const changed = await pagesToPublish(tx, websiteId);
  if (changed.length) {
    const ids = sql`(select jsonb_array_elements_text(${JSON.stringify(changed)}::jsonb))`;
    await tx.execute(sql`
      delete from ${publishedSectionDigests} where website_id = ${websiteId} and page_id in ${ids}`);
    await tx.execute(sql`
      delete from ${publishedPageDigests} d where d.website_id = ${websiteId} and d.page_id in ${ids}
        and not exists (select 1 from pages p where p.id = d.page_id and p.website_id = ${websiteId})`);
    await tx.execute(sql`
      insert into ${publishedPageDigests} as d
        (website_id, page_id, position, slug, title, kind, excerpt, has_excerpt, seo_title, seo_description,
         created_at, digest, page)
      select p.website_id, p.id, 0, p.slug, p.title, p.kind, p.excerpt, true, p.seo_title, p.seo_description,
             p.created_at, md5(x.page::text), x.page
      from pages p cross join lateral (select jsonb_build_object(
               'id', p.id, 'slug', p.slug, 'title', p.title, 'kind', p.kind, 'excerpt', p.excerpt,
               'createdAt', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'seoTitle', p.seo_title, 'seoDescription', p.seo_description,
               'sections', coalesce((
                 select jsonb_agg(jsonb_build_object(
                          'id', s.id, 'type', s.type, 'content', s.content, 'layout', s.layout,
                          'hidden', s.hidden) order by s.position)
                 from sections s where s.page_id = p.id), '[]'::jsonb)) as page) x
      where p.website_id = ${websiteId} and p.id in ${ids}
      on conflict (website_id, page_id) do update set
        slug = excluded.slug, title = excluded.title, kind = excluded.kind, excerpt = excluded.excerpt,
        has_excerpt = true, seo_title = excluded.seo_title, seo_description = excluded.seo_description,
        created_at = excluded.created_at, digest = excluded.digest, page = excluded.page`);
    await tx.execute(sql`
      insert into ${publishedSectionDigests} (website_id, section_id, page_id, position, type, hidden, digest)
      select s.website_id, s.id, s.page_id,
             row_number() over (partition by s.page_id order by s.position), s.type, s.hidden, s.digest
      from sections s where s.website_id = ${websiteId} and s.page_id in ${ids}`);
  }
  // The draft matches the live site again: nothing is left to name until the next write.
  await tx.delete(draftTouchedPages).where(eq(draftTouchedPages.websiteId, websiteId));
  // Pages are numbered in the draft's order; only those whose place moved are written.
  const result = (await tx.execute(sql`
    with placed as (
      update ${publishedPageDigests} d set position = o.place
      from (select id, row_number() over (order by position, created_at)::int as place
            from pages where website_id = ${websiteId}) o
      where d.website_id = ${websiteId} and d.page_id = o.id and d.position <> o.place
    )
    select count(*)::int as pages from ${publishedPageDigests} where website_id = ${websiteId}`)) as unknown as {
    rows: Array<{ pages: number }>;
  };
  return { rev: site.rev, pages: Number(result.rows[0]?.pages ?? 0) };
}

/**
 * Offline at once: the live pages go, `publishedAt` keeps when the site was last live (the owner's
 * pages say it is offline). The site's deletion takes it offline the same way.
 */
export async function unpublishSite(tx: Db, websiteId: string, now: Date): Promise<void> {
  await tx.update(websites).set({ publishedRev: null, updatedAt: now }).where(eq(websites.id, websiteId));
  await tx.delete(publishedSectionDigests).where(eq(publishedSectionDigests.websiteId, websiteId));
  await tx.delete(publishedPageDigests).where(eq(publishedPageDigests.websiteId, websiteId));
  await tx.delete(draftTouchedPages).where(eq(draftTouchedPages.websiteId, websiteId));
}
