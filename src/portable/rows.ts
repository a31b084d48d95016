// Row building shared by a new import and a merge (R-IMP-1): section content with asset
// references resolved to library ids and re-validated, its import fingerprint, and the rows of new pages
// and sections. The domain writes them (src/domain/pages/import.ts).
import { newId } from '../kernel/ids.js';
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

/**
 * The rows of new pages (positions from `firstPosition`) and of their sections: what an import writes
 * for pages the website does not have yet (src/domain/pages/import.ts writes them).
 */
export function newPageRows(list: readonly ResolvedPage[], firstPosition: number, now: Date) {
  const pageRows = list.map((p, i) => ({
    id: newId('page'),
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    excerpt: p.excerpt,
    seoTitle: p.seo.title,
    seoDescription: p.seo.description,
    position: firstPosition + i,
    createdAt: postDate(p) ?? now,
    updatedAt: now,
  }));
  const sectionRows = list.flatMap((p, i) =>
    p.sections.map((s, position) => sectionRow(pageRows[i]!.id, s, position, now)),
  );
  return { pages: pageRows, sections: sectionRows };
}

/** A post's own date (a date alone is read as noon UTC, the same day in almost every time zone). */
function postDate(p: ResolvedPage): Date | null {
  if (p.kind !== 'post' || !p.date) return null;
  return new Date(p.date.length === 10 ? `${p.date}T12:00:00Z` : p.date);
}

/** The row of a new imported section on `pageId`, with the fingerprint merges compare later. */
export function sectionRow(pageId: string, s: ResolvedSection, position: number, now: Date) {
  return {
    id: newId('sec'),
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
