// The draft as one value: pages in order with their sections in order. loadDraftRows is the one read
// of it, as stored rows (export_site needs each section's externalKey); loadDraft shapes it like the
// published snapshot so the two can be compared (list_draft_changes) and the draft copied to live
// (publish).
import { and, asc, eq } from 'drizzle-orm';
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
  const byPage = new Map<string, SectionRow[]>();
  for (const s of sectionRows) {
    const list = byPage.get(s.pageId) ?? [];
    list.push(s);
    byPage.set(s.pageId, list);
  }
  return pageRows.map((p) => ({ ...p, sections: byPage.get(p.id) ?? [] }));
}

export async function loadDraft(tx: Db, websiteId: string, sectionsOf?: string): Promise<SnapshotPage[]> {
  return (await loadDraftRows(tx, websiteId, sectionsOf)).map((p) => ({
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
  }));
}
