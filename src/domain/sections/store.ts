// Row-level access to draft sections for the write tools (R-TOOL-3): every edit locks
// the rows it reads (SELECT … FOR UPDATE) so two writers on one section never lose an update, bumps the
// section's `rev` and the website's draft revision, all inside the caller's one transaction (ctx.tx).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { fixedSelect, fixedSql } from '../../db/named.js';
import { assets, pages, sections } from '../../db/schema.js';
import { bumpDraftRevision, draftBump } from '../sites/draft-revision.js';
import type { AnySiteCtx, SiteCtx } from '../context.js';
import { dbOf } from '../context.js';
import { notFound } from '../../kernel/errors.js';
import { ASSET_ID, MD_LINK } from './types.js';

export type SectionRow = typeof sections.$inferSelect;
export type NewSectionRow = typeof sections.$inferInsert;
export type PageRow = typeof pages.$inferSelect;

/** Locks a page of the context's website; a page of another site is the same not_found as a missing one. */
export async function lockPage(ctx: SiteCtx, pageId: string): Promise<PageRow> {
  const [page] = await ctx.tx
    .select()
    .from(pages)
    .where(and(eq(pages.id, pageId), eq(pages.websiteId, ctx.website.id)))
    .for('update');
  if (!page) throw notFound('page');
  return page;
}

/** Locks one section that must sit on `pageId` of the context's website (else not_found). */
export async function lockSection(ctx: SiteCtx, pageId: string, sectionId: string): Promise<SectionRow> {
  const known = lockedRows.get(ctx.tx)?.get(sectionId);
  if (known && known.pageId === pageId && known.websiteId === ctx.website.id) return known;
  const row = await findSection(ctx, pageId, sectionId, true);
  remember(ctx.tx, row);
  return row;
}

// The sections a transaction holds locked, as it last read or saved them: the transaction's one cache.
// A later edit in the same transaction (the calls of one group, src/db/group-commit.ts) takes its row
// from here instead of asking the database again: the row lock is held until the transaction ends, so
// no one else can have changed it. Any other write to sections in the transaction (renumbering,
// inserts, deletes) must forget them all through `sectionsChanged`; test/architecture/section-writers
// fails on a writer of the table that does not.
const lockedRows = new WeakMap<Db, Map<string, SectionRow>>();

function remember(tx: Db, row: SectionRow): void {
  let rows = lockedRows.get(tx);
  if (!rows) {
    rows = new Map();
    lockedRows.set(tx, rows);
  }
  rows.set(row.id, row);
}

/** Every write to sections other than saveSection calls this in its transaction (see `lockedRows`). */
export function sectionsChanged(tx: Db): void {
  lockedRows.delete(tx);
}

/** One section of `pageId` on the context's website, optionally locked; a foreign one is not_found. */
export async function findSection(
  ctx: AnySiteCtx,
  pageId: string,
  sectionId: string,
  lock = false,
): Promise<SectionRow> {
  const read = lock ? sectionLocked : sectionRead;
  const [row] = await read(dbOf(ctx), { sectionId, pageId, websiteId: ctx.website.id });
  if (!row) throw notFound('section');
  return row;
}

// Fixed statements, built once and planned once per connection (src/db/named.ts).
const sectionWhere = and(
  eq(sections.id, sql.placeholder('sectionId')),
  eq(sections.pageId, sql.placeholder('pageId')),
  eq(sections.websiteId, sql.placeholder('websiteId')),
);
const sectionRead = fixedSelect('sitegate_section', (db) => db.select().from(sections).where(sectionWhere));
const sectionLocked = fixedSelect('sitegate_section_locked', (db) =>
  db.select().from(sections).where(sectionWhere).for('update'),
);

/** The sections of a page in order, locked (used when positions change). */
export async function lockPageSections(ctx: SiteCtx, pageId: string): Promise<SectionRow[]> {
  sectionsChanged(ctx.tx); // positions are about to change
  return ctx.tx
    .select()
    .from(sections)
    .where(and(eq(sections.pageId, pageId), eq(sections.websiteId, ctx.website.id)))
    .orderBy(asc(sections.position), asc(sections.createdAt))
    .for('update');
}

type SectionPatch = Partial<Pick<SectionRow, 'content' | 'layout' | 'hidden' | 'position'>>;
const PATCHABLE = ['content', 'layout', 'hidden', 'position'] as const;

/** Writes a locked section's new values, bumping its rev and the site's draft revision, in one statement. */
export async function saveSection(
  ctx: SiteCtx,
  row: SectionRow,
  patch: SectionPatch,
): Promise<{ rev: number; draftRevision: number }> {
  const rev = row.rev + 1;
  const columns = PATCHABLE.filter((c) => patch[c] !== undefined);
  const result = await saveStatement(columns)(ctx.tx, {
    ...patch,
    rev,
    now: ctx.now,
    sectionId: row.id,
    websiteId: ctx.website.id,
  });
  remember(ctx.tx, { ...row, ...patch, rev, updatedAt: ctx.now });
  return { rev, draftRevision: Number(result.rows[0]!.draft_rev) };
}

// The section and the website's draft revision in one statement (one round trip, docs/performance.md): a
// fixed statement for each set of patched columns, built once (src/db/named.ts).
const saves = new Map<string, ReturnType<typeof buildSave>>();

function saveStatement(columns: ReadonlyArray<(typeof PATCHABLE)[number]>) {
  const name = ['sitegate_save_section', ...columns].join('_');
  let save = saves.get(name);
  if (!save) {
    save = buildSave(name, columns);
    saves.set(name, save);
  }
  return save;
}

function buildSave(name: string, columns: ReadonlyArray<(typeof PATCHABLE)[number]>) {
  // Drizzle maps a placeholder in set() as it maps one in an insert's values (through the column's
  // encoder, when the value is filled in); only its types leave placeholders out of set().
  const values = {
    ...Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])),
    rev: sql.placeholder('rev'),
    updatedAt: sql.placeholder('now'),
  } as unknown as Partial<SectionRow>;
  return fixedSql<{ draft_rev: number }>(name, (db) => {
    const save = db
      .update(sections)
      .set(values)
      .where(eq(sections.id, sql.placeholder('sectionId')));
    // The draft revision moves by the one bump statement, run in this same statement after the save.
    const bump = draftBump(db, sql.placeholder('websiteId'), sql.placeholder('now'));
    return sql`with saved as (${save.getSQL()}) ${bump.getSQL()}`;
  });
}

/** One more draft revision for the context's website (atomic increment); returns the new value. */
export function bumpDraft(ctx: SiteCtx): Promise<number> {
  return bumpDraftRevision(ctx.tx, ctx.website.id, ctx.now);
}

/**
 * The one path that inserts sections (add_section, create_blog_post, import_site and its merges,
 * migrate_site_from_url), in batches of 500 rows, in the caller's transaction.
 */
export async function insertSections(tx: Db, rows: readonly NewSectionRow[]): Promise<void> {
  sectionsChanged(tx);
  for (let i = 0; i < rows.length; i += 500) await tx.insert(sections).values(rows.slice(i, i + 500));
}

/** Writes positions 0..n-1 in the given order, touching only rows whose position changed. */
export async function renumber(
  ctx: SiteCtx,
  ordered: ReadonlyArray<Pick<SectionRow, 'id' | 'position'>>,
): Promise<void> {
  sectionsChanged(ctx.tx);
  for (const [i, s] of ordered.entries()) {
    if (s.position !== i) {
      await ctx.tx.update(sections).set({ position: i }).where(eq(sections.id, s.id));
    }
  }
}

/** Every library asset id a content value refers to (URL fields and Markdown link targets). */
function assetIdsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (ASSET_ID.test(value)) out.add(value);
    for (const m of value.matchAll(MD_LINK)) if (ASSET_ID.test(m[2]!)) out.add(m[2]!);
  } else if (Array.isArray(value)) {
    for (const v of value) assetIdsIn(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) assetIdsIn(v, out);
  }
  return out;
}

/**
 * The one check for library asset ids entering content (R-SEC-4): every id that content names
 * (URL fields and Markdown link targets) must be an asset of this website. A foreign id and an
 * unknown one get the same `not_found` (R-ISO-1), so ids of other tenants cannot be probed.
 * Every writer calls it: add_section, update_section_text, replace_section_content, create_blog_post,
 * import_site and migrate_site_from_url (through commitImport).
 */
export async function assertOwnAssets(ctx: SiteCtx, content: unknown): Promise<void> {
  await assertAssetsOf(ctx.tx, ctx.website.id, content);
}

/** The same check for a website that may not exist yet (`null`: a new import has no library). */
export async function assertAssetsOf(tx: Db, websiteId: string | null, content: unknown): Promise<void> {
  const ids = [...assetIdsIn(content)];
  if (!ids.length) return;
  const found = websiteId
    ? await tx
        .select({ id: assets.id })
        .from(assets)
        .where(and(inArray(assets.id, ids), eq(assets.websiteId, websiteId)))
    : [];
  if (found.length !== ids.length) throw notFound('library asset');
}
