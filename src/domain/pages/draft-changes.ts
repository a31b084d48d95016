// What differs between the draft and the published snapshot, page by page and section by section,
// in words an owner reads. Pure: takes both values, returns the list.
import { isDeepStrictEqual } from 'node:util';
import type { PageSection, PageWithSections } from '../../db/page-shape.js';
import { plural } from '../../kernel/plural.js';

/** A section as compared: either its content and layout, or a digest of both (see sites/digest.ts). */
export type DiffSection = Pick<PageSection, 'id' | 'type' | 'hidden'> &
  Partial<Pick<PageSection, 'content' | 'layout'>> & { digest?: string };
export type DiffPage = PageWithSections<DiffSection>;

function sameSection(a: DiffSection, b: DiffSection): boolean {
  if (a.digest !== undefined && b.digest !== undefined) return a.digest === b.digest;
  return isDeepStrictEqual(a.content, b.content) && isDeepStrictEqual(a.layout, b.layout);
}

export type DraftChange = {
  pageId: string;
  page: string;
  sectionId?: string;
  change:
    | 'page_added'
    | 'page_removed'
    | 'page_updated'
    | 'section_added'
    | 'section_removed'
    | 'section_updated'
    | 'section_moved'
    | 'section_hidden'
    | 'section_shown';
  description: string;
};

export function diffDraft(draft: DiffPage[], published: { pages: DiffPage[] } | null): DraftChange[] {
  const out: DraftChange[] = [];
  const livePages = new Map((published?.pages ?? []).map((p) => [p.id, p]));
  for (const page of draft) {
    const live = livePages.get(page.id);
    livePages.delete(page.id);
    const name = `"${page.title}" (/${page.slug})`;
    if (!live) {
      out.push({
        pageId: page.id,
        page: page.title,
        change: 'page_added',
        description: `New ${page.kind === 'post' ? 'blog post' : 'page'} ${name} with ${plural(page.sections.length, 'section')}.`,
      });
      continue;
    }
    const fields: string[] = [];
    if (live.title !== page.title) fields.push('title');
    if (live.slug !== page.slug) fields.push('address');
    if (live.seoTitle !== page.seoTitle) fields.push('search title');
    if (live.seoDescription !== page.seoDescription) fields.push('search description');
    if (live.excerpt !== undefined && live.excerpt !== (page.excerpt ?? null)) fields.push('excerpt');
    if (fields.length) {
      out.push({
        pageId: page.id,
        page: page.title,
        change: 'page_updated',
        description: `Page ${name}: ${fields.join(', ')} changed.`,
      });
    }
    const liveSections = new Map(live.sections.map((s, i) => [s.id, { s, i }]));
    const stayed = inOrder(page.sections.map((s) => liveSections.get(s.id)?.i ?? -1).filter((i) => i >= 0));
    page.sections.forEach((s, i) => {
      const was = liveSections.get(s.id);
      liveSections.delete(s.id);
      const label = `${s.type} section`;
      const base = { pageId: page.id, page: page.title, sectionId: s.id };
      if (!was) {
        out.push({
          ...base,
          change: 'section_added',
          description: `Page ${name}: new ${label} at position ${i + 1}.`,
        });
        return;
      }
      if (!sameSection(was.s, s)) {
        out.push({ ...base, change: 'section_updated', description: `Page ${name}: ${label} edited.` });
      }
      if (was.s.hidden !== s.hidden) {
        out.push({
          ...base,
          change: s.hidden ? 'section_hidden' : 'section_shown',
          description: `Page ${name}: ${label} ${s.hidden ? 'hidden' : 'shown again'}.`,
        });
      }
      // Sections merely shifted by an insert or removal keep their relative order: not "moved".
      if (!stayed.has(was.i)) {
        out.push({
          ...base,
          change: 'section_moved',
          description: `Page ${name}: ${label} moved from position ${was.i + 1} to ${i + 1}.`,
        });
      }
    });
    for (const { s } of liveSections.values()) {
      out.push({
        pageId: page.id,
        page: page.title,
        sectionId: s.id,
        change: 'section_removed',
        description: `Page ${name}: ${s.type} section removed.`,
      });
    }
  }
  for (const live of livePages.values()) {
    out.push({
      pageId: live.id,
      page: live.title,
      change: 'page_removed',
      description: `Page "${live.title}" (/${live.slug}) is no longer in the draft.`,
    });
  }
  return out;
}

/** The live indices that keep their relative order (a longest increasing subsequence, O(n log n)). */
function inOrder(seq: number[]): Set<number> {
  const tails: number[] = []; // tails[k] = index in seq ending the best run of length k+1
  const prev = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out = new Set<number>();
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) out.add(seq[k]!);
  return out;
}
