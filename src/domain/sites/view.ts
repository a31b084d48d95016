// What the pages people look at may show (R-WEB-6): the draft to members of the
// site only, the published snapshot to anyone once published, and library assets only when their
// site is published or the viewer is a member. Read-only; no HTTP here.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { assets, brands, pages as pageRows, publishedPageDigests, websites } from '../../db/schema.js';
import { timeZoneOf } from '../crm/booking-request.js';
import { memberRole } from '../../gate/person.js';
import { type SnapshotPage, loadDraft } from './draft.js';

export type SiteView = {
  websiteId: string;
  name: string;
  pages: SnapshotPage[];
  brand: { palette: Record<string, string>; fonts: { heading?: string; body?: string } };
  /** The search visibility setting (R-SITE-5): false asks engines not to list it. */
  searchVisible: boolean;
  /** The website's time zone: post dates are shown in it. */
  timeZone: string;
  /** Visitors' AI assistants may use the published site's MCP endpoint (the owner's switch). */
  visitorAgents: boolean;
};

/**
 * The draft (for members) or the published snapshot (null when never published or unpublished).
 * `sectionsOf` (draft only) loads the sections of that one page alone (loadDraft).
 */
export async function loadSiteView(
  db: Db,
  websiteId: string,
  which: 'draft' | 'published',
  sectionsOf?: string,
): Promise<SiteView | null> {
  const [row] = await db
    .select({
      id: websites.id,
      name: websites.name,
      publishedRev: websites.publishedRev,
      publishedAt: websites.publishedAt,
      searchVisible: websites.searchVisible,
      visitorAgents: websites.visitorAgents,
      config: websites.config,
      palette: brands.palette,
      fonts: brands.fonts,
    })
    .from(websites)
    .leftJoin(brands, eq(brands.websiteId, websites.id))
    // A deleted site shows nothing, to visitors and members alike.
    .where(and(eq(websites.id, websiteId), isNull(websites.deletedAt)));
  if (!row) return null;
  let pages: SnapshotPage[];
  if (which === 'published') {
    if (row.publishedRev === null) return null;
    const live = await publishedPages(db, websiteId, row.publishedRev, row.publishedAt);
    if (!live) return null;
    pages = live;
  } else {
    pages = await loadDraft(db, websiteId, sectionsOf);
  }
  return {
    websiteId: row.id,
    name: row.name,
    pages,
    brand: { palette: row.palette ?? {}, fonts: row.fonts ?? {} },
    searchVisible: row.searchVisible,
    timeZone: timeZoneOf(row.config),
    visitorAgents: row.visitorAgents,
  };
}

/**
 * The parsed pages of the published snapshot of each website a process has served lately: a page
 * view, a visitor's assistant's search and the business card read the live site's row (its revision)
 * and not its whole snapshot, which is read and parsed once per publish in each process. A snapshot is
 * named by its revision and the time it went live, which every publish sets and nothing else writes,
 * so a process never serves another's older snapshot as current; a website keeps one entry, so a newer
 * snapshot replaces the one before it. Bounded by the size of the snapshots' JSON; the pages are
 * frozen, as they are shared by every request.
 */
const PUBLISHED_CACHE_BYTES = 32 * 1024 * 1024;
type Parsed = {
  name: string;
  pages: SnapshotPage[];
  /** Each page's digest (published_page_digests): the pages a newer snapshot changed are read alone. */
  digests: Map<string, string | null>;
  bytes: number;
};
const published = new LRUCache<string, Parsed>({
  maxSize: PUBLISHED_CACHE_BYTES,
  sizeCalculation: (v) => Math.max(1, v.bytes),
});

const nameOf = (rev: number | null, at: Date | null) => `${rev}:${at?.getTime() ?? 0}`;

export async function publishedPages(
  db: Db,
  websiteId: string,
  rev: number,
  at: Date | null,
): Promise<SnapshotPage[] | null> {
  const name = nameOf(rev, at);
  const hit = published.get(websiteId);
  if (hit?.name === name) return hit.pages;
  const parsed =
    (hit && (await changedSince(db, websiteId, name, hit))) ?? (await wholeSnapshot(db, websiteId, name));
  if (!parsed) return null;
  if (parsed.name === name) published.set(websiteId, parsed);
  return parsed.pages;
}

/** The live pages read and parsed whole, with their digests (one statement: one revision). */
async function wholeSnapshot(db: Db, websiteId: string, name: string): Promise<Parsed | null> {
  const rows = await db
    .select({
      rev: websites.publishedRev,
      at: websites.publishedAt,
      page: publishedPageDigests.page,
      digest: publishedPageDigests.digest,
      bytes: sql<number>`octet_length(${publishedPageDigests.page}::text)`.mapWith(Number),
    })
    .from(websites)
    .leftJoin(publishedPageDigests, eq(publishedPageDigests.websiteId, websites.id))
    .where(eq(websites.id, websiteId))
    .orderBy(asc(publishedPageDigests.position));
  const first = rows[0];
  if (!first || first.rev === null) return null;
  const live = rows.flatMap((r) => (r.page ? [r.page] : []));
  const pages = await withDates(db, websiteId, live);
  return {
    name: nameOf(first.rev, first.at),
    // Served to this request alone when it is not the revision asked for (a publish in between).
    pages: nameOf(first.rev, first.at) === name ? deepFreeze(pages) : pages,
    digests: new Map(rows.flatMap((r) => (r.page ? [[r.page.id, r.digest] as const] : []))),
    bytes: rows.reduce((n, r) => n + (r.bytes ?? 0), 0),
  };
}

/**
 * The revision `name` from an earlier one this process parsed: the pages whose digest moved are read
 * from the database and parsed, the others kept as they are. Null when the live site is no longer
 * `name` by the time it is read (the caller reads it whole).
 */
async function changedSince(db: Db, websiteId: string, name: string, before: Parsed): Promise<Parsed | null> {
  const [now] = await db
    .select({
      rev: websites.publishedRev,
      at: websites.publishedAt,
      order: sql<Array<
        [string, string | null]
      > | null>`(select jsonb_agg(jsonb_build_array(d.page_id, d.digest) order by d.position)
        from ${publishedPageDigests} d where d.website_id = ${websites.id})`,
    })
    .from(websites)
    .where(eq(websites.id, websiteId));
  if (!now || nameOf(now.rev, now.at) !== name) return null;
  const order = now.order ?? [];
  const kept = new Map(before.pages.map((p) => [p.id, p]));
  const changed = order
    .filter(([id, digest]) => digest === null || before.digests.get(id) !== digest || !kept.has(id))
    .map(([id]) => id);
  const read = changed.length
    ? await db
        .select({ rev: websites.publishedRev, at: websites.publishedAt, page: publishedPageDigests.page })
        .from(websites)
        .leftJoin(
          publishedPageDigests,
          and(eq(publishedPageDigests.websiteId, websites.id), inArray(publishedPageDigests.pageId, changed)),
        )
        .where(eq(websites.id, websiteId))
    : [{ rev: now.rev, at: now.at, page: null }];
  if (!read[0] || nameOf(read[0].rev, read[0].at) !== name) return null;
  const fresh = new Map(
    deepFreeze(
      await withDates(
        db,
        websiteId,
        read.flatMap((r) => (r.page ? [r.page] : [])),
      ),
    ).map((p) => [p.id, p] as const),
  );
  const pages: SnapshotPage[] = [];
  for (const [id] of order) {
    const page = fresh.get(id) ?? kept.get(id);
    if (!page) return null;
    pages.push(page);
  }
  return { name, pages, digests: new Map(order), bytes: before.bytes };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Snapshots published before pages carried their date: the dates from the pages that still exist. */
async function withDates(db: Db, websiteId: string, list: SnapshotPage[]): Promise<SnapshotPage[]> {
  const missing = list.filter((p) => p.kind === 'post' && !p.createdAt).map((p) => p.id);
  if (!missing.length) return list;
  const rows = await db
    .select({ id: pageRows.id, createdAt: pageRows.createdAt })
    .from(pageRows)
    .where(and(eq(pageRows.websiteId, websiteId), inArray(pageRows.id, missing)));
  const dates = new Map(rows.map((r) => [r.id, r.createdAt.toISOString()]));
  return list.map((p) => (dates.has(p.id) ? { ...p, createdAt: dates.get(p.id)! } : p));
}

/** A page as far as its address goes. */
type Addressed = { slug: string; kind: string };

/** The page at a site path: "" is the home page (slug "home", else the first page). */
export function pageAt<P extends Addressed>(view: { pages: readonly P[] }, path: string): P | null {
  const slug = path.replace(/^\/+|\/+$/g, '');
  if (!slug)
    return view.pages.find((p) => p.slug === 'home') ?? view.pages.find((p) => p.kind === 'page') ?? null;
  return view.pages.find((p) => p.slug === slug) ?? null;
}

/** The site path of a page as visitors address it: `/` for the home page, else `/<slug>`. */
export function sitePathOf<P extends Addressed>(view: { pages: readonly P[] }, page: P): string {
  return pageAt(view, '') === page ? '/' : `/${page.slug}`;
}

/** An asset row if this viewer may fetch it: its site is published, or the viewer is a member. */
export async function visibleAsset(db: Db, assetId: string, userId: string | null) {
  const [row] = await db
    .select({ asset: assets, publishedRev: websites.publishedRev })
    .from(assets)
    .innerJoin(websites, eq(websites.id, assets.websiteId))
    .where(and(eq(assets.id, assetId), isNull(websites.deletedAt)));
  if (!row) return null;
  if (row.publishedRev !== null) return row.asset;
  if (userId && (await memberRole(db, { userId }, row.asset.websiteId))) return row.asset;
  return null;
}
