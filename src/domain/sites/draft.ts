// The draft as one value: pages in order with their sections in order. loadDraftRows is the one read
// of it, as stored rows (export_site needs each section's externalKey); loadDraft shapes it like the
// published snapshot so the two can be compared (list_draft_changes) and the draft copied to live
// (publish).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { PageWithSections } from '../../db/page-shape.js';
import { pages, sections } from '../../db/schema.js';

export type SnapshotPage = PageWithSections;

type PageRow = typeof pages.$inferSelect;
type SectionRow = typeof sections.$inferSelect;
export type DraftPageRows = PageRow & { sections: SectionRow[] };

/**
 * `sectionsOf` names the one page whose sections are wanted (a page's preview, whose navigation needs
 * only the other pages' titles): every other page then comes without its sections.
 */
export async function loadDraftRows(
  tx: Db,
  websiteId: string,
  sectionsOf?: string,
): Promise<DraftPageRows[]> {
  // One after the other: inside a transaction on node-postgres both would share one client.
  const pageRows = await tx
    .select()
    .from(pages)
    .where(eq(pages.websiteId, websiteId))
    .orderBy(asc(pages.position), asc(pages.createdAt));
  const sectionRows = await tx
    .select()
    .from(sections)
    .where(
      sectionsOf === undefined
        ? eq(sections.websiteId, websiteId)
        : and(eq(sections.websiteId, websiteId), eq(sections.pageId, sectionsOf)),
    )
    .orderBy(asc(sections.pageId), asc(sections.position));
  return withSections(pageRows, sectionRows);
}

/** Each page with its sections, in the order both lists come in. */
function withSections(pageRows: PageRow[], sectionRows: SectionRow[]): DraftPageRows[] {
  const byPage = new Map<string, SectionRow[]>();
  for (const s of sectionRows) {
    const list = byPage.get(s.pageId) ?? [];
    list.push(s);
    byPage.set(s.pageId, list);
  }
  return pageRows.map((p) => ({ ...p, sections: byPage.get(p.id) ?? [] }));
}

export async function loadDraft(tx: Db, websiteId: string, sectionsOf?: string): Promise<SnapshotPage[]> {
  return (await loadDraftRows(tx, websiteId, sectionsOf)).map(asSnapshotPage);
}

/** The draft pages `pageIds` (those that exist), in the draft's order, with their sections. */
export async function loadDraftPages(
  tx: Db,
  websiteId: string,
  pageIds: readonly string[],
): Promise<SnapshotPage[]> {
  if (!pageIds.length) return [];
  const pageRows = await tx
    .select()
    .from(pages)
    .where(and(eq(pages.websiteId, websiteId), inArray(pages.id, [...pageIds])))
    .orderBy(asc(pages.position), asc(pages.createdAt));
  const sectionRows = await tx
    .select()
    .from(sections)
    .where(and(eq(sections.websiteId, websiteId), inArray(sections.pageId, [...pageIds])))
    .orderBy(asc(sections.pageId), asc(sections.position));
  return withSections(pageRows, sectionRows).map(asSnapshotPage);
}

/** The draft pages and posts with no visible section, in the draft's order: they would go live empty. */
export async function emptyDraftPages(tx: Db, websiteId: string) {
  return tx
    .select({ title: pages.title, slug: pages.slug, kind: pages.kind })
    .from(pages)
    .where(
      and(
        eq(pages.websiteId, websiteId),
        sql`not exists (select 1 from ${sections} where ${sections.pageId} = ${pages.id} and not ${sections.hidden})`,
      ),
    )
    .orderBy(asc(pages.position), asc(pages.createdAt));
}

function asSnapshotPage(p: DraftPageRows): SnapshotPage {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    excerpt: p.excerpt,
    createdAt: p.createdAt.toISOString(),
    seoTitle: p.seoTitle,
    seoDescription: p.seoDescription,
    sections: p.sections.map((s) => ({
      id: s.id,
      type: s.type,
      content: s.content,
      layout: s.layout,
      hidden: s.hidden,
    })),
  };
}
