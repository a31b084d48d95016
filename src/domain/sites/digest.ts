// The draft and the published snapshot as digests for list_draft_changes and the publish review (kept
// fast on large sites; docs/performance.md): page fields plus, per section, md5 of its jsonb content and
// layout, kept by the database in the section's row (sections.digest, a generated column) and computed
// the same way from the snapshot. jsonb prints canonically, so equal values give equal digests
// whether they sit in a sections row or inside websites.published. No section content is transferred.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pages, sections } from '../../db/schema.js';
import type { DiffPage, DiffSection } from '../pages/draft-changes.js';

/** `onlyPage`: that one page's digest alone (what a page's preview compares with the live site). */
export async function loadDraftDigest(tx: Db, websiteId: string, onlyPage?: string): Promise<DiffPage[]> {
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
    .where(and(eq(pages.websiteId, websiteId), onlyPage === undefined ? undefined : eq(pages.id, onlyPage)))
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
    .where(
      and(
        eq(sections.websiteId, websiteId),
        onlyPage === undefined ? undefined : eq(sections.pageId, onlyPage),
      ),
    )
    .orderBy(asc(sections.pageId), asc(sections.position));
  const byPage = new Map<string, DiffSection[]>();
  for (const { pageId, ...s } of sectionRows) {
    const list = byPage.get(pageId) ?? [];
    list.push(s);
    byPage.set(pageId, list);
  }
  return pageRows.map((p) => ({ ...p, sections: byPage.get(p.id) ?? [] }));
}

type PublishedRow = {
  page_id: string;
  slug: string;
  title: string;
  kind: string;
  excerpt: string | null;
  has_excerpt: boolean;
  seo_title: string | null;
  seo_description: string | null;
  section_id: string | null;
  type: string | null;
  hidden: boolean | null;
  digest: string | null;
};

// A published snapshot never changes in place: publishDraft writes a new one with a new publishedAt.
// So its digest is memoised per (website, publishedRev, publishedAt), a few hundred bytes per section.
const MEMO_MAX = 200;
const memo = new Map<string, { pages: DiffPage[] }>();

/** The published digest, memoised by the snapshot's identity (see above). */
export async function publishedDigest(
  tx: Db,
  website: { id: string; publishedRev: number | null; publishedAt: Date | null },
): Promise<{ pages: DiffPage[] } | null> {
  if (website.publishedRev === null) return null;
  const key = `${website.id}:${website.publishedRev}:${website.publishedAt?.getTime() ?? 0}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const live = (await loadPublishedDigest(tx, website.id)) ?? { pages: [] };
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, live);
  return live;
}

/** The published snapshot's pages and section digests, in order; null when the site is not live. */
async function loadPublishedDigest(tx: Db, websiteId: string): Promise<{ pages: DiffPage[] } | null> {
  const result = await tx.execute(sql`
    select p->>'id' as page_id, p->>'slug' as slug, p->>'title' as title, p->>'kind' as kind,
           p->>'excerpt' as excerpt, p ? 'excerpt' as has_excerpt,
           p->>'seoTitle' as seo_title, p->>'seoDescription' as seo_description,
           s->>'id' as section_id, s->>'type' as type, (s->>'hidden')::boolean as hidden,
           md5(coalesce(s->'content', 'null'::jsonb)::text || '|' || coalesce(s->'layout', 'null'::jsonb)::text) as digest
    from websites w
    cross join lateral jsonb_array_elements(w.published->'pages') with ordinality as pp(p, pi)
    left join lateral jsonb_array_elements(p->'sections') with ordinality as ss(s, si) on true
    where w.id = ${websiteId} and w.published is not null
    order by pp.pi, ss.si`);
  const rows = (result as unknown as { rows: PublishedRow[] }).rows;
  if (!rows.length) return null;
  const out: DiffPage[] = [];
  for (const r of rows) {
    let page = out[out.length - 1];
    if (!page || page.id !== r.page_id) {
      page = {
        id: r.page_id,
        slug: r.slug,
        title: r.title,
        kind: r.kind,
        ...(r.has_excerpt ? { excerpt: r.excerpt } : {}),
        seoTitle: r.seo_title,
        seoDescription: r.seo_description,
        sections: [],
      };
      out.push(page);
    }
    if (r.section_id) {
      page.sections.push({
        id: r.section_id,
        type: r.type ?? '',
        hidden: r.hidden === true,
        digest: r.digest ?? '',
      });
    }
  }
  return { pages: out };
}
