// Writing an import into a website's draft (import_site, its merges, migrate_site_from_url). The importer
// (src/portable) decides what to write: the pages and sections to add, and which imported sections to
// overwrite (those not edited in the app since, or forced). This writes exactly that, all on the one
// website it is given, and moves the draft revision on once.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sections } from '../../db/schema.js';
import { type NewSectionRow, insertSections, sectionsChanged } from '../sections/store.js';
import { bumpDraftRevision } from '../sites/draft-revision.js';
import { type NewPageRow, insertPages } from './insert.js';

/** A section the import overwrites with what it brings, and the fingerprint of what it wrote. */
export type ImportedSectionUpdate = Pick<
  NewSectionRow,
  'id' | 'type' | 'content' | 'layout' | 'hidden' | 'importFingerprint'
>;

export type DraftImport = {
  pages: ReadonlyArray<Omit<NewPageRow, 'websiteId'>>;
  sections: ReadonlyArray<Omit<NewSectionRow, 'websiteId'>>;
  updates?: readonly ImportedSectionUpdate[];
};

export async function writeDraftImport(
  tx: Db,
  websiteId: string,
  now: Date,
  write: DraftImport,
): Promise<{ draftRevision: number }> {
  await insertPages(
    tx,
    write.pages.map((p) => ({ ...p, websiteId })),
  );
  await insertSections(
    tx,
    write.sections.map((s) => ({ ...s, websiteId })),
  );
  sectionsChanged(tx);
  for (const { id, ...set } of write.updates ?? []) {
    await tx
      .update(sections)
      .set({ ...set, rev: sql`${sections.rev} + 1`, updatedAt: now })
      .where(and(eq(sections.id, id), eq(sections.websiteId, websiteId)));
  }
  return { draftRevision: await bumpDraftRevision(tx, websiteId, now) };
}
