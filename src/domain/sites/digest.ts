// The draft and the live site as digests for list_draft_changes, the publish review and the publish
// itself (kept fast on large sites; docs/performance.md): page fields plus, per section, md5 of its jsonb
// content and layout. The draft's are kept by the database in each section's row (sections.digest, a
// generated column); the live site's in published_page_digests and published_section_digests, which a
// publish writes from the same column (src/domain/sites/publish.ts). The pages written since the last
// publish are kept by triggers (draft_touched_pages): a change list reads those pages' digests alone,
// and no section content is transferred.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  draftTouchedPages,
  pages,
  publishedPageDigests,
  publishedSectionDigests,
  sections,
  websites,
} from '../../db/schema.js';
import type { DiffPage, DiffSection } from '../pages/draft-changes.js';

/**
 * The pages whose draft may differ from the live site: on a live site, the pages written since it went
 * live (draft_touched_pages, kept by triggers on pages and sections: a page added, removed, with other
 * fields, or holding a section added, removed, edited, hidden or moved); on a site that is not live,
 * every draft page. A page named may turn out to have no change (edited back): diffDraft decides. Reads
 * the touched pages alone, however large the site.
 */
export async function changedPageIds(tx: Db, websiteId: string): Promise<string[]> {
  const result = (await tx.execute(sql`
    select p.id as page_id from ${pages} p join ${websites} w on w.id = p.website_id
    where p.website_id = ${websiteId} and w.published_rev is null
    union
    select t.page_id from ${draftTouchedPages} t join ${websites} w on w.id = t.website_id
    where t.website_id = ${websiteId} and w.published_rev is not null`)) as unknown as {
    rows: Array<{ page_id: string }>;
  };
  return result.rows.map((r) => r.page_id);
}

/**
 * The pages a publish writes: those written since the site was last live (their deletion included), or
 * every draft page when nothing of the site is live (never published, or taken offline). Live pages
 * published before pages carried their excerpt and date were named by migration 0027. Reads the
 * touched list, and the draft's pages only when nothing is live.
 */
export async function pagesToPublish(tx: Db, websiteId: string): Promise<string[]> {
  const result = (await tx.execute(sql`
    select page_id from ${draftTouchedPages} where website_id = ${websiteId}
    union
    select p.id from ${pages} p where p.website_id = ${websiteId}
      and not exists (select 1 from ${publishedPageDigests} d where d.website_id = ${websiteId})`)) as unknown as {
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
