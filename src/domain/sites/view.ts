// What the pages people look at may show (R-WEB-6): the draft to members of the
// site only, the published snapshot to anyone once published, and library assets only when their
// site is published or the viewer is a member. Read-only; no HTTP here.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { PublishedSnapshot } from '../../db/page-shape.js';
import { assets, brands, pages as pageRows, websites } from '../../db/schema.js';
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
      // The snapshot holds the whole live site: read only when it is the one asked for.
      published: which === 'published' ? websites.published : sql<null>`null`,
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
    const snap = row.published as PublishedSnapshot | null;
    if (!snap) return null;
    pages = await withDates(db, websiteId, snap.pages);
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
