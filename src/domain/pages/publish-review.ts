// What a publish will change, as the owner reads it on the approval page (R-PLAN-3):
// each changed section's live and draft text field by field, added / removed / moved / hidden
// sections, search (SEO) fields, new and removed pages and posts. Pure: takes the draft and the
// published snapshot, returns plain strings (never markup) and how each is shown on the site (plain
// text or Markdown); the page renders, escapes and diffs them. Also every visible field of the draft
// that still holds placeholder text, and every page that would go live empty, so the owner sees them
// before approving.
import { z } from 'zod';
import { type Placeholder, findPlaceholders } from '../sections/placeholders.js';
import { fieldFormat } from '../sections/types.js';
import type { SnapshotPage } from '../sites/draft.js';
import { type DraftChange, diffDraft } from './draft-changes.js';

export const ReviewField = z.object({
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** How the site shows the text: plain, Markdown blocks or one line of Markdown (absent before). */
  format: z.enum(['text', 'markdown', 'inline']).default('text'),
});
export type ReviewField = z.infer<typeof ReviewField>;

export const ReviewSection = z.object({
  page: z.string(),
  slug: z.string(),
  sectionId: z.string(),
  type: z.string(),
  /** What happened to the section as a whole. */
  change: z.enum(['edited', 'added', 'removed', 'unchanged']),
  moved: z.object({ from: z.number(), to: z.number() }).nullable(),
  /** 'hidden' when the draft hides a live section, 'shown' when it shows a hidden one again. */
  visibility: z.enum(['hidden', 'shown']).nullable(),
  /** Only the fields that differ (all of them for an added or removed section). */
  fields: z.array(ReviewField),
});
export type ReviewSection = z.infer<typeof ReviewSection>;

export const PublishReview = z.object({
  newPages: z.array(
    z.object({ title: z.string(), slug: z.string(), kind: z.string(), sections: z.number() }),
  ),
  removedPages: z.array(z.object({ title: z.string(), slug: z.string(), kind: z.string() })),
  /** Page-level fields: title, address, search title and description, excerpt. */
  pageFields: z.array(z.object({ page: z.string(), slug: z.string(), field: ReviewField })),
  sections: z.array(ReviewSection),
  /** Visible draft fields still holding add_section's placeholder text (absent in older plans). */
  placeholders: z
    .array(
      z.object({
        page: z.string(),
        slug: z.string(),
        sectionId: z.string(),
        type: z.string(),
        field: z.string(),
        text: z.string(),
      }),
    )
    .default([]),
  /** Draft pages and posts that would go live with no visible section: an empty page (absent in older plans). */
  emptyPages: z.array(z.object({ title: z.string(), slug: z.string(), kind: z.string() })).default([]),
});
export type PublishReview = z.infer<typeof PublishReview>;

/** "buttonLabel" → "Button label". */
function humanise(key: string): string {
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Leaf = { text: string; format: ReviewField['format'] };

/**
 * Every leaf of a section's content (and its layout) as a labelled line of text, in document order,
 * with how the site shows it (`type` decides which fields are Markdown).
 */
export function sectionText(content: unknown, layout: unknown, type = ''): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const walk = (v: unknown, label: string, path: string) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(item, `${label} ${i + 1}`, path);
      return;
    }
    if (typeof v === 'object') {
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) {
        walk(inner, label ? `${label} › ${humanise(k)}` : humanise(k), path ? `${path}.${k}` : k);
      }
      return;
    }
    out.set(label || 'Content', { text: String(v), format: fieldFormat(type, path) });
  };
  walk(content, '', '');
  if (layout && typeof layout === 'object') {
    for (const [k, v] of Object.entries(layout as Record<string, unknown>)) {
      if (v !== undefined && v !== null)
        out.set(`Layout › ${humanise(k)}`, { text: String(v), format: 'text' });
    }
  }
  return out;
}

function fieldDiff(before: Map<string, Leaf> | null, after: Map<string, Leaf> | null): ReviewField[] {
  const labels = [...new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])])];
  const out: ReviewField[] = [];
  for (const label of labels) {
    const b = before?.get(label) ?? null;
    const a = after?.get(label) ?? null;
    if (b?.text !== a?.text) {
      out.push({ label, before: b?.text ?? null, after: a?.text ?? null, format: (a ?? b)!.format });
    }
  }
  return out;
}

/** A page field (title, address, search text, excerpt): always plain text. */
const plainDiff = (before: Map<string, string>, after: Map<string, string>) =>
  fieldDiff(plain(before), plain(after));
const plain = (m: Map<string, string>) =>
  new Map([...m].map(([k, text]) => [k, { text, format: 'text' as const }]));

type Sec = SnapshotPage['sections'][number];

export function reviewPublish(
  draft: SnapshotPage[],
  published: { pages: SnapshotPage[] } | null,
): PublishReview {
  return reviewChanged(draft, published, {
    placeholders: findPlaceholders(draft),
    emptyPages: draft.filter((p) => !p.sections.some((s) => !s.hidden)),
  });
}

/** What the whole draft says beyond its changes: its placeholders and its pages with nothing visible. */
export type DraftWarnings = {
  placeholders: readonly Placeholder[];
  emptyPages: ReadonlyArray<{ title: string; slug: string; kind: string }>;
};

/**
 * The review from the pages that differ alone: `draft` and `published` hold, each in its own order,
 * those of the changed pages that exist on that side (the rest are equal on both sides and add nothing
 * to a review), and `warnings` what the whole draft says (src/domain/pages/review-now.ts reads these
 * without loading every page).
 */
export function reviewChanged(
  draft: readonly SnapshotPage[],
  published: { pages: readonly SnapshotPage[] } | null,
  warnings: DraftWarnings,
): PublishReview {
  const changes = diffDraft(draft as SnapshotPage[], published as { pages: SnapshotPage[] } | null);
  const livePages = new Map((published?.pages ?? []).map((p) => [p.id, p]));
  const draftPages = new Map(draft.map((p) => [p.id, p]));
  const review: PublishReview = {
    newPages: [],
    removedPages: [],
    pageFields: [],
    sections: [],
    placeholders: warnings.placeholders.map(({ pageId: _p, ...rest }: Placeholder) => rest),
    emptyPages: warnings.emptyPages.map((p) => ({ title: p.title, slug: p.slug, kind: p.kind })),
  };

  const bySection = new Map<string, DraftChange[]>();
  for (const c of changes) {
    if (c.change === 'page_added') {
      const p = draftPages.get(c.pageId)!;
      review.newPages.push({ title: p.title, slug: p.slug, kind: p.kind, sections: p.sections.length });
      // A new page's sections are all new: show their text too.
      for (const s of p.sections) review.sections.push(added(p, s));
    } else if (c.change === 'page_removed') {
      const p = livePages.get(c.pageId)!;
      review.removedPages.push({ title: p.title, slug: p.slug, kind: p.kind });
    } else if (c.change === 'page_updated') {
      const live = livePages.get(c.pageId)!;
      const now = draftPages.get(c.pageId)!;
      const pick = (p: SnapshotPage) =>
        new Map(
          (
            [
              ['Title', p.title],
              ['Address', `/${p.slug}`],
              ['Search title', p.seoTitle],
              ['Search description', p.seoDescription],
              ['Excerpt', live.excerpt === undefined ? null : (p.excerpt ?? null)],
            ] as const
          ).flatMap(([k, v]) => (v === null ? [] : [[k, v] as [string, string]])),
        );
      for (const field of plainDiff(pick(live), pick(now))) {
        review.pageFields.push({ page: now.title, slug: now.slug, field });
      }
    } else if (c.sectionId) {
      const list = bySection.get(c.sectionId) ?? [];
      list.push(c);
      bySection.set(c.sectionId, list);
    }
  }

  for (const [sectionId, list] of bySection) {
    const pageId = list[0]!.pageId;
    const now = draftPages.get(pageId);
    const live = livePages.get(pageId)!;
    const liveIdx = live.sections.findIndex((s) => s.id === sectionId);
    const draftIdx = now ? now.sections.findIndex((s) => s.id === sectionId) : -1;
    const kinds = new Set(list.map((c) => c.change));
    if (kinds.has('section_removed')) {
      const s = live.sections[liveIdx]!;
      review.sections.push({
        ...base(now ?? live, s),
        change: 'removed',
        fields: fieldDiff(sectionText(s.content, s.layout, s.type), null),
      });
      continue;
    }
    const s = now!.sections[draftIdx]!;
    if (kinds.has('section_added')) {
      review.sections.push(added(now!, s));
      continue;
    }
    const was = live.sections[liveIdx]!;
    review.sections.push({
      ...base(now!, s),
      change: kinds.has('section_updated') ? 'edited' : 'unchanged',
      moved: kinds.has('section_moved') ? { from: liveIdx + 1, to: draftIdx + 1 } : null,
      visibility: kinds.has('section_hidden') ? 'hidden' : kinds.has('section_shown') ? 'shown' : null,
      fields: fieldDiff(
        sectionText(was.content, was.layout, was.type),
        sectionText(s.content, s.layout, s.type),
      ),
    });
  }
  return review;
}

function base(p: SnapshotPage, s: Sec): ReviewSection {
  return {
    page: p.title,
    slug: p.slug,
    sectionId: s.id,
    type: s.type,
    change: 'unchanged',
    moved: null,
    visibility: null,
    fields: [],
  };
}

function added(p: SnapshotPage, s: Sec): ReviewSection {
  return {
    ...base(p, s),
    change: 'added',
    visibility: s.hidden ? 'hidden' : null,
    fields: fieldDiff(null, sectionText(s.content, s.layout, s.type)),
  };
}
