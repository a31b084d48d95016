// Row building shared by a new import and a merge (SPEC §4.5 import_site): section content with asset
// references resolved to library ids and re-validated, its import fingerprint, and batched inserts.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { newId } from '../kernel/ids.js';
import { pages, websites } from '../db/schema.js';
import { insertSections } from '../domain/sections/store.js';
import { parseSectionContent } from '../domain/sections/types.js';
import { keyByUrl } from './prepare.js';
import { importFingerprint, resolveAssetRefs } from './refs.js';
import type { PortableSiteV1 } from './schema.js';

export type ResolvedSection = PortableSiteV1['pages'][number]['sections'][number] & { fp: string };

export function resolveSections(site: PortableSiteV1, idByKey: Map<string, string>) {
  const byUrl = keyByUrl(site);
  return site.pages.map((p) => ({
    ...p,
    sections: p.sections.map((s): ResolvedSection => {
      const r = parseSectionContent(
        s.type,
        resolveAssetRefs(s.content, byUrl, (k) => idByKey.get(k)),
      );
      if (!r.ok) throw new Error(`section ${s.externalKey} became invalid after asset resolution`);
      return { ...s, content: r.content, fp: importFingerprint({ ...s, content: r.content }) };
    }),
  }));
}

export type ResolvedPage = ReturnType<typeof resolveSections>[number];

export async function insertPages(
  tx: Db,
  websiteId: string,
  list: readonly ResolvedPage[],
  firstPosition: number,
  now: Date,
): Promise<void> {
  const pageRows = list.map((p, i) => ({
    id: newId('page'),
    websiteId,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    excerpt: p.excerpt,
    seoTitle: p.seo.title,
    seoDescription: p.seo.description,
    position: firstPosition + i,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < pageRows.length; i += 500) await tx.insert(pages).values(pageRows.slice(i, i + 500));
  const sectionRows = list.flatMap((p, i) =>
    p.sections.map((s, position) => sectionRow(websiteId, pageRows[i]!.id, s, position, now)),
  );
  await insertSections(tx, sectionRows);
  await tx
    .update(websites)
    .set({ draftRev: sql`${websites.draftRev} + 1`, updatedAt: now })
    .where(eq(websites.id, websiteId));
}

export function sectionRow(
  websiteId: string,
  pageId: string,
  s: ResolvedSection,
  position: number,
  now: Date,
) {
  return {
    id: newId('sec'),
    websiteId,
    pageId,
    type: s.type,
    content: s.content,
    layout: s.layout,
    hidden: s.hidden,
    position,
    externalKey: s.externalKey,
    importFingerprint: s.fp,
    createdAt: now,
    updatedAt: now,
  };
}
