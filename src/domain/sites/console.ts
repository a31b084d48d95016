// What the owner's console shows of one website: its state (live or draft only, draft ahead of live)
// and the draft's pages and posts in order, each with its section count. Read-only.
import { asc, count, eq } from 'drizzle-orm';
import { pages, sections, websites } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { timeZoneOf } from '../crm/booking-request.js';

export type ConsolePage = { id: string; slug: string; title: string; kind: string; sections: number };

export type SiteConsole = {
  id: string;
  name: string;
  publishedAt: Date | null;
  /** Taken offline after it was live (not a draft that was never published). */
  offline: boolean;
  draftAhead: boolean;
  timeZone: string;
  /** Visitors' AI assistants may use the live site's /_api/mcp (the owner's switch). */
  visitorAgents: boolean;
  pages: ConsolePage[];
};

export async function siteConsole(ctx: SiteCtx): Promise<SiteConsole> {
  const [site] = await ctx.tx
    .select({
      id: websites.id,
      name: websites.name,
      publishedAt: websites.publishedAt,
      publishedRev: websites.publishedRev,
      draftRev: websites.draftRev,
      config: websites.config,
      visitorAgents: websites.visitorAgents,
    })
    .from(websites)
    .where(eq(websites.id, ctx.website.id));
  const counts = await ctx.tx
    .select({ pageId: sections.pageId, n: count() })
    .from(sections)
    .where(eq(sections.websiteId, ctx.website.id))
    .groupBy(sections.pageId);
  const sectionsOf = new Map(counts.map((c) => [c.pageId, Number(c.n)]));
  const rows = await ctx.tx
    .select({ id: pages.id, slug: pages.slug, title: pages.title, kind: pages.kind })
    .from(pages)
    .where(eq(pages.websiteId, ctx.website.id))
    .orderBy(asc(pages.kind), asc(pages.position), asc(pages.createdAt));
  return {
    id: site!.id,
    name: site!.name,
    publishedAt: site!.publishedRev === null ? null : site!.publishedAt,
    offline: site!.publishedRev === null && site!.publishedAt !== null,
    draftAhead: site!.publishedRev === null || site!.draftRev !== site!.publishedRev,
    timeZone: timeZoneOf(site!.config),
    visitorAgents: site!.visitorAgents,
    pages: rows.map((r) => ({ ...r, sections: sectionsOf.get(r.id) ?? 0 })),
  };
}
