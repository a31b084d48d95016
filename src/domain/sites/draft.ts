// The draft as one value: pages in order with their sections in order, shaped like the published
// snapshot so the two can be compared (list_draft_changes) and the draft copied to live (publish).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type PublishedSnapshot, pages, sections } from '../../db/schema.js';

export type SnapshotPage = PublishedSnapshot['pages'][number];

export async function loadDraft(tx: Db, websiteId: string): Promise<SnapshotPage[]> {
  // One after the other: inside a transaction on node-postgres both would share one client.
  const pageRows = await tx
    .select()
    .from(pages)
    .where(eq(pages.websiteId, websiteId))
    .orderBy(asc(pages.position), asc(pages.createdAt));
  const sectionRows = await tx
    .select()
    .from(sections)
    .where(eq(sections.websiteId, websiteId))
    .orderBy(asc(sections.pageId), asc(sections.position));
  const byPage = new Map<string, SnapshotPage['sections']>();
  for (const s of sectionRows) {
    const list = byPage.get(s.pageId) ?? [];
    list.push({ id: s.id, type: s.type, content: s.content, layout: s.layout, hidden: s.hidden });
    byPage.set(s.pageId, list);
  }
  return pageRows.map((p) => ({
    id: p.id,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    excerpt: p.excerpt,
    createdAt: p.createdAt.toISOString(),
    seoTitle: p.seoTitle,
    seoDescription: p.seoDescription,
    sections: byPage.get(p.id) ?? [],
  }));
}
