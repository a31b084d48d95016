// Reading pages and their sections from the draft.
import { and, asc, eq, sql } from 'drizzle-orm';
import { fixedSelect } from '../../db/named.js';
import { pages, sections } from '../../db/schema.js';
import type { AnySiteCtx, DirectSiteCtx } from '../context.js';
import { dbOf } from '../context.js';
import { notFound } from '../../kernel/errors.js';
import { diffDraft } from './draft-changes.js';
import type { Db } from '../../db/client.js';
import { loadDraftDigest, publishedDigest } from '../sites/digest.js';
import { loadDraft } from '../sites/draft.js';
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

export async function listPages(ctx: DirectSiteCtx) {
  const draft = await loadDraft(ctx.db, ctx.website.id);
  return draft.map((p) => ({
    pageId: p.id,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    sections: p.sections.map((s) => ({
      sectionId: s.id,
      type: s.type,
      hidden: s.hidden,
      label: sectionLabel(s.content as Record<string, unknown>),
    })),
  }));
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

/** What differs from the live site; compares digests so no section content leaves the database. */
export async function draftChanges(
  tx: Db,
  website: { id: string; publishedRev: number | null; publishedAt: Date | null },
) {
  // One after the other: a transaction is one connection (node-postgres must not interleave queries).
  const draft = await loadDraftDigest(tx, website.id);
  return diffDraft(draft, await publishedDigest(tx, website));
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
