// Merging an import into an existing site (R-IMP-4): a restore point
// first; sections match by externalKey; new ones are inserted (on the page with the same slug, or a new
// page); a match whose type, content, layout and hidden flag still hash to its importFingerprint (not
// edited in the app since the last import) is updated; an app-edited match is kept and reported as a conflict unless its key is
// in forceKeys. Site config, theme, fonts, name and brand are never touched.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { pages, sections } from '../db/schema.js';
import type { DirectSiteCtx, SiteRef } from '../domain/context.js';
import { type ImportedSectionUpdate, writeDraftImport } from '../domain/pages/import.js';
import { sha256OfCanonicalJson } from '../kernel/fingerprint.js';
import { editedSinceImport } from './refs.js';
import { type ResolvedPage, type ResolvedSection, newPageRows, sectionRow } from './rows.js';
import { takeRestorePoint } from '../domain/sites/restore.js';

export type MergeReport = {
  restorePointId: string;
  inserted: number;
  updated: number;
  unchanged: number;
  conflicts: string[];
  forced: string[];
  newPages: number;
};

export async function mergeSections(
  tx: Db,
  ctx: DirectSiteCtx,
  target: SiteRef,
  incoming: readonly ResolvedPage[],
  forceKeys: readonly string[],
): Promise<MergeReport> {
  const restorePointId = await takeRestorePoint(
    tx,
    target.id,
    'before import merge',
    ctx.actor.userId,
    ctx.now,
  );
  const force = new Set(forceKeys);
  const existingPages = await tx.select().from(pages).where(eq(pages.websiteId, target.id));
  const pageBySlug = new Map(existingPages.map((p) => [p.slug, p]));
  const keyed = await tx
    .select()
    .from(sections)
    .where(and(eq(sections.websiteId, target.id), isNotNull(sections.externalKey)));
  const byKey = new Map(keyed.map((s) => [s.externalKey!, s]));
  const positions = new Map<string, number>();
  if (existingPages.length) {
    const rows = await tx
      .select({ pageId: sections.pageId, max: sql<number>`max(${sections.position})` })
      .from(sections)
      .where(
        inArray(
          sections.pageId,
          existingPages.map((p) => p.id),
        ),
      )
      .groupBy(sections.pageId);
    for (const r of rows) positions.set(r.pageId, Number(r.max) + 1);
  }
  const report: MergeReport = {
    restorePointId,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    conflicts: [],
    forced: [],
    newPages: 0,
  };
  const newPages: ResolvedPage[] = [];
  const inserts: ReturnType<typeof sectionRow>[] = [];
  const updates: ImportedSectionUpdate[] = [];

  for (const page of incoming) {
    const existingPage = pageBySlug.get(page.slug);
    const fresh: ResolvedSection[] = [];
    for (const s of page.sections) {
      const current = byKey.get(s.externalKey);
      if (!current) {
        if (existingPage) {
          const pos = positions.get(existingPage.id) ?? 0;
          positions.set(existingPage.id, pos + 1);
          inserts.push(sectionRow(existingPage.id, s, pos, ctx.now));
        } else fresh.push(s);
        report.inserted += 1;
        continue;
      }
      const editedInApp = editedSinceImport(current);
      if (editedInApp && !force.has(s.externalKey)) {
        report.conflicts.push(s.externalKey);
        continue;
      }
      if (editedInApp) report.forced.push(s.externalKey);
      const same =
        !editedInApp &&
        current.importFingerprint === s.fp &&
        current.type === s.type &&
        sha256OfCanonicalJson(current.layout) === sha256OfCanonicalJson(s.layout) &&
        current.hidden === s.hidden;
      if (same) {
        report.unchanged += 1;
        continue;
      }
      updates.push({
        id: current.id,
        type: s.type,
        content: s.content,
        layout: s.layout,
        hidden: s.hidden,
        importFingerprint: s.fp,
      });
      report.updated += 1;
    }
    if (!existingPage && fresh.length) newPages.push({ ...page, sections: fresh });
  }
  const added = newPageRows(newPages, existingPages.length, ctx.now);
  report.newPages = newPages.length;
  // The domain writes what the merge decided, and moves the draft revision on once.
  await writeDraftImport(tx, target.id, ctx.now, {
    pages: added.pages,
    sections: [...inserts, ...added.sections],
    updates,
  });
  return report;
}
