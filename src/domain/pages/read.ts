// Reading pages and their sections from the draft.
import { and, asc, eq, sql } from 'drizzle-orm';
import { fixedSelect } from '../../db/named.js';
import { pages, sections } from '../../db/schema.js';
import type { AnySiteCtx, DirectSiteCtx } from '../context.js';
import { dbOf } from '../context.js';
import { decodeKey, encodeKey, isKeyId } from '../../kernel/cursor.js';
import { notFound } from '../../kernel/errors.js';
import { diffDraft } from './draft-changes.js';
import type { Db } from '../../db/client.js';
import { changedPageIds, loadDraftDigest, loadPublishedDigest } from '../sites/digest.js';
import { websiteRowOf } from '../sites/row.js';
import { draftPlaceholders } from '../sections/placeholders.js';
import { plural } from '../../kernel/plural.js';

/** A short, readable label for a section in listings (never the whole content). */
export function sectionLabel(content: Record<string, unknown>): string {
  for (const k of ['heading', 'alt', 'body']) {
    const v = content[k];
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 80);
  }
  return '';
}

/** How many pages list_pages answers at most in one call, and by default. */
export const LIST_PAGES_MAX = 200;
export const LIST_PAGES_DEFAULT = 100;

/** The key list_pages pages on: position, then id. */
const pagesCursor = (raw: string) =>
  decodeKey(
    raw,
    (v) => (Number.isInteger(v.p) && isKeyId(v.id) ? { p: v.p as number, id: v.id } : null),
    'Pass the nextCursor of the previous answer, or omit cursor.',
  );

/**
 * list_pages: the draft's pages and posts in order, a page of them at a time (keyset on position and
 * id), each with its sections' ids, types and a short label. Only the listed pages' sections are read,
 * and of their content only what a label needs.
 */
export async function listPages(ctx: DirectSiteCtx, input: { cursor?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(input.limit ?? LIST_PAGES_DEFAULT, 1), LIST_PAGES_MAX);
  const after = input.cursor ? pagesCursor(input.cursor) : null;
  const rows = await ctx.db
    .select({
      id: pages.id,
      slug: pages.slug,
      title: pages.title,
      kind: pages.kind,
      position: pages.position,
    })
    .from(pages)
    .where(
      and(
        eq(pages.websiteId, ctx.website.id),
        after ? sql`(${pages.position}, ${pages.id}) > (${after.p}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(pages.position), asc(pages.id))
    .limit(limit + 1);
  const listed = rows.slice(0, limit);
  // Each listed page's sections through the page index (a walk per page, however large the site).
  const secs = listed.length
    ? (
        (await ctx.db.execute(sql`
          select s.id, s.page_id as "pageId", s.type, s.hidden, s.content->>'heading' as heading,
                 s.content->>'alt' as alt, left(s.content->>'body', 200) as body
          from jsonb_array_elements_text(${JSON.stringify(listed.map((p) => p.id))}::jsonb) as l(id)
          cross join lateral (
            select * from ${sections} x where x.page_id = l.id and x.website_id = ${ctx.website.id}
            order by x.position) s`)) as unknown as {
          rows: Array<{
            id: string;
            pageId: string;
            type: string;
            hidden: boolean;
            heading: string | null;
            alt: string | null;
            body: string | null;
          }>;
        }
      ).rows
    : [];
  const byPage = new Map<string, typeof secs>();
  for (const x of secs) byPage.set(x.pageId, [...(byPage.get(x.pageId) ?? []), x]);
  const last = listed.at(-1);
  return {
    pages: listed.map((p) => ({
      pageId: p.id,
      slug: p.slug,
      title: p.title,
      kind: p.kind,
      sections: (byPage.get(p.id) ?? []).map((x) => ({
        sectionId: x.id,
        type: x.type,
        hidden: x.hidden,
        label: sectionLabel({ heading: x.heading, alt: x.alt, body: x.body }),
      })),
    })),
    // Absent on the last page.
    ...(rows.length > limit && last ? { nextCursor: encodeKey({ p: last.position, id: last.id }) } : {}),
  };
}

/** Loads a page of the context's website, or the same not_found for a missing or foreign page. */
async function pageOf(ctx: AnySiteCtx, pageId: string) {
  const [page] = await pageRead(dbOf(ctx), { pageId, websiteId: ctx.website.id });
  if (!page) throw notFound('page');
  return page;
}

// Fixed statements, built once and planned once per connection (src/db/named.ts): after each draft
// write the next get_page misses the read cache and comes here.
const pageRead = fixedSelect('sitegate_page', (db) =>
  db
    .select()
    .from(pages)
    .where(and(eq(pages.id, sql.placeholder('pageId')), eq(pages.websiteId, sql.placeholder('websiteId')))),
);
const pageSections = fixedSelect('sitegate_page_sections', (db) =>
  db
    .select()
    .from(sections)
    .where(eq(sections.pageId, sql.placeholder('pageId')))
    .orderBy(asc(sections.position)),
);

export async function getPage(ctx: DirectSiteCtx, pageId: string) {
  const page = await pageOf(ctx, pageId);
  const rows = await pageSections(ctx.db, { pageId: page.id });
  return {
    pageId: page.id,
    slug: page.slug,
    title: page.title,
    kind: page.kind,
    excerpt: page.excerpt,
    seo: { title: page.seoTitle, description: page.seoDescription },
    sections: rows.map((s) => ({
      sectionId: s.id,
      type: s.type,
      hidden: s.hidden,
      content: s.content,
      layout: s.layout,
      rev: s.rev,
    })),
  };
}

/**
 * What differs from the live site: the database names the pages that may differ (changedPageIds), and
 * those pages' digests alone are compared, so no section content leaves the database.
 */
export async function draftChanges(tx: Db, website: { id: string; publishedRev: number | null }) {
  // One after the other: a transaction is one connection (node-postgres must not interleave queries).
  const ids = await changedPageIds(tx, website.id);
  const draft = await loadDraftDigest(tx, website.id, ids);
  if (website.publishedRev === null) return diffDraft(draft, null);
  return diffDraft(draft, { pages: await loadPublishedDigest(tx, website.id, ids) });
}

export async function listDraftChanges(ctx: DirectSiteCtx) {
  const website = await websiteRowOf(ctx);
  const changes = await draftChanges(ctx.db, website);
  const placeholders = await draftPlaceholders(ctx.db, website.id);
  const summary = [
    changes.length === 0
      ? 'The draft matches the live site.'
      : `${plural(changes.length, 'change')} not yet live. Publishing needs the owner's approval: call prepare_publish.`,
  ];
  if (placeholders.length) {
    summary.push(
      `${plural(placeholders.length, 'visible field')} still ${placeholders.length === 1 ? 'shows' : 'show'} placeholder text (see placeholders): replace them with update_section_text or hide the section before publishing.`,
    );
  }
  return {
    published: website.publishedRev !== null,
    draftRevision: website.draftRev,
    changes,
    placeholders: placeholders.map(({ slug: _slug, ...p }) => p),
    summary: summary.join(' '),
  };
}
