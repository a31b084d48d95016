// The draft and the live site as digests for list_draft_changes, the publish review and the publish
// itself (kept fast on large sites; docs/performance.md): page fields plus, per section, md5 of its jsonb
// content and layout. The draft's are kept by the database in each section's row (sections.digest, a
// generated column); the live site's in published_page_digests and published_section_digests, which a
// publish writes from the same column (src/domain/sites/publish.ts). The database compares the two and names the pages that
// differ; only those pages' digests are read, and no section content is transferred.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pages, publishedPageDigests, publishedSectionDigests, sections } from '../../db/schema.js';
import type { DiffPage, DiffSection } from '../pages/draft-changes.js';

/**
 * The pages whose draft may differ from the live site: a page added, removed or with other fields on
 * one side, or holding a section that is on one side only, moved between pages, or differs in digest,
 * visibility or place among its page's sections. Every page with a change is named (a page named may
 * turn out to have none: diffDraft decides). On a site that is not live, every draft page.
 * `withUndated` adds the live pages published before pages carried their excerpt and date, so a
 * publish writes them as the draft has them now.
 */
export async function changedPageIds(
  tx: Db,
  websiteId: string,
  { withUndated = false }: { withUndated?: boolean } = {},
): Promise<string[]> {
  const result = (await tx.execute(sql`
    with d as (
      select id, page_id, type, hidden, digest,
             row_number() over (partition by page_id order by position) as place
      from ${sections} where website_id = ${websiteId}
    ), l as (
      select section_id, page_id, type, hidden, digest, position as place
      from ${publishedSectionDigests} where website_id = ${websiteId}
    )
    select v.page_id from (
      select d.page_id as draft_page_id, l.page_id as live_page_id
      from d full join l on l.section_id = d.id
      where d.id is null or l.section_id is null or d.page_id <> l.page_id or d.hidden <> l.hidden
         or d.type <> l.type or d.digest <> l.digest or d.place <> l.place
    ) s, lateral (values (s.draft_page_id), (s.live_page_id)) as v(page_id)
    where v.page_id is not null
    union
    select coalesce(p.id, lp.page_id)
    from (select * from ${pages} where website_id = ${websiteId}) p
    full join (select * from ${publishedPageDigests} where website_id = ${websiteId}) lp on lp.page_id = p.id
    where p.id is null or lp.page_id is null or p.slug <> lp.slug or p.title <> lp.title or p.kind <> lp.kind
       or p.created_at <> lp.created_at or (${withUndated} and (not lp.has_excerpt or lp.created_at is null))
       or p.seo_title is distinct from lp.seo_title or p.seo_description is distinct from lp.seo_description
       or (lp.has_excerpt and p.excerpt is distinct from lp.excerpt)`)) as unknown as {
    rows: Array<{ page_id: string }>;
  };
  return result.rows.map((r) => r.page_id);
}

/**
 * The draft pages `pageIds` (those that exist; every page without it) with their section digests, in
 * the draft's order.
 */
export async function loadDraftDigest(
  tx: Db,
  websiteId: string,
  pageIds?: readonly string[],
): Promise<DiffPage[]> {
  if (pageIds?.length === 0) return [];
  const pageRows = await tx
    .select({
      id: pages.id,
      slug: pages.slug,
      title: pages.title,
      kind: pages.kind,
      excerpt: pages.excerpt,
      seoTitle: pages.seoTitle,
      seoDescription: pages.seoDescription,
    })
    .from(pages)
    .where(and(eq(pages.websiteId, websiteId), pageIds && inArray(pages.id, [...pageIds])))
    .orderBy(asc(pages.position), asc(pages.createdAt));
  const sectionRows = await tx
    .select({
      id: sections.id,
      pageId: sections.pageId,
      type: sections.type,
      hidden: sections.hidden,
      digest: sections.digest,
    })
    .from(sections)
    .where(and(eq(sections.websiteId, websiteId), pageIds && inArray(sections.pageId, [...pageIds])))
    .orderBy(asc(sections.pageId), asc(sections.position));
  const sectionsOf = byPage(sectionRows);
  return pageRows.map((p) => ({ ...p, sections: sectionsOf.get(p.id) ?? [] }));
}

/**
 * The live pages `pageIds` (those in the snapshot; every page without it) with their section digests,
 * in the snapshot's order.
 */
export async function loadPublishedDigest(
  tx: Db,
  websiteId: string,
  pageIds?: readonly string[],
): Promise<DiffPage[]> {
  if (pageIds?.length === 0) return [];
  const pageRows = await tx
    .select()
    .from(publishedPageDigests)
    .where(
      and(
        eq(publishedPageDigests.websiteId, websiteId),
        pageIds && inArray(publishedPageDigests.pageId, [...pageIds]),
      ),
    )
    .orderBy(asc(publishedPageDigests.position));
  const sectionRows = await tx
    .select({
      id: publishedSectionDigests.sectionId,
      pageId: publishedSectionDigests.pageId,
      type: publishedSectionDigests.type,
      hidden: publishedSectionDigests.hidden,
      digest: publishedSectionDigests.digest,
    })
    .from(publishedSectionDigests)
    .where(
      and(
        eq(publishedSectionDigests.websiteId, websiteId),
        pageIds && inArray(publishedSectionDigests.pageId, [...pageIds]),
      ),
    )
    .orderBy(asc(publishedSectionDigests.pageId), asc(publishedSectionDigests.position));
  const sectionsOf = byPage(sectionRows);
  return pageRows.map((p) => ({
    id: p.pageId,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    ...(p.hasExcerpt ? { excerpt: p.excerpt } : {}),
    seoTitle: p.seoTitle,
    seoDescription: p.seoDescription,
    sections: sectionsOf.get(p.pageId) ?? [],
  }));
}

/** Rows grouped by page, in the order they come in. */
function byPage(rows: Array<DiffSection & { pageId: string }>): Map<string, DiffSection[]> {
  const out = new Map<string, DiffSection[]>();
  for (const { pageId, ...s } of rows) {
    const list = out.get(pageId) ?? [];
    list.push(s);
    out.set(pageId, list);
  }
  return out;
}
