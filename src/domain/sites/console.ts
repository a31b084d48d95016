// What the owner's console shows of one website: its state (live or draft only, draft ahead of live)
// and the draft's pages and posts in order, a hundred at a time, each with its section count. Read-only.
import { and, asc, eq, sql } from 'drizzle-orm';
import { decodeKey, encodeKey, isKeyId } from '../../kernel/cursor.js';
import { notFound } from '../../kernel/errors.js';
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
  /** Where the next pages of the list start, when there are more. */
  morePages: string | null;
  /** Where this list started (null: at the first page). */
  pagesFrom: string | null;
};

/** Pages and posts the console lists at once; more are a link further. */
export const CONSOLE_PAGES = 100;

export async function siteConsole(ctx: SiteCtx, input: { after?: string } = {}): Promise<SiteConsole> {
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
  const after = input.after ? consoleCursor(input.after) : null;
  const rows = await ctx.tx
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
        after
          ? sql`(${pages.kind}, ${pages.position}, ${pages.id}) > (${after.k}, ${after.p}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(asc(pages.kind), asc(pages.position), asc(pages.id))
    .limit(CONSOLE_PAGES + 1);
  const shown = rows.slice(0, CONSOLE_PAGES);
  const sectionsOf = await sectionCounts(
    ctx,
    shown.map((r) => r.id),
  );
  const last = shown.at(-1);
  return {
    id: site!.id,
    name: site!.name,
    publishedAt: site!.publishedRev === null ? null : site!.publishedAt,
    offline: site!.publishedRev === null && site!.publishedAt !== null,
    draftAhead: site!.publishedRev === null || site!.draftRev !== site!.publishedRev,
    timeZone: timeZoneOf(site!.config),
    visitorAgents: site!.visitorAgents,
    pages: shown.map(({ position: _p, ...r }) => ({ ...r, sections: sectionsOf.get(r.id) ?? 0 })),
    morePages:
      rows.length > CONSOLE_PAGES && last ? encodeKey({ k: last.kind, p: last.position, id: last.id }) : null,
    pagesFrom: input.after ?? null,
  };
}

async function sectionCounts(ctx: SiteCtx, pageIds: string[]): Promise<Map<string, number>> {
  if (!pageIds.length) return new Map();
  // Counted through the page index, page by page, however large the site.
  const counts = (await ctx.tx.execute(sql`
    select l.id as "pageId", (select count(*) from ${sections} s
                              where s.page_id = l.id and s.website_id = ${ctx.website.id})::int as n
    from jsonb_array_elements_text(${JSON.stringify(pageIds)}::jsonb) as l(id)`)) as unknown as {
    rows: Array<{ pageId: string; n: number }>;
  };
  return new Map(counts.rows.map((c) => [c.pageId, Number(c.n)]));
}

/** One page of the draft as the console lists it (its delete confirmation); a foreign id is not_found. */
export async function consolePage(ctx: SiteCtx, pageId: string): Promise<ConsolePage> {
  const [row] = await ctx.tx
    .select({ id: pages.id, slug: pages.slug, title: pages.title, kind: pages.kind })
    .from(pages)
    .where(and(eq(pages.id, pageId), eq(pages.websiteId, ctx.website.id)));
  if (!row) throw notFound('page');
  return { ...row, sections: (await sectionCounts(ctx, [row.id])).get(row.id) ?? 0 };
}

/** The key the console's page list pages on: kind, position, then id. */
const consoleCursor = (raw: string) =>
  decodeKey(
    raw,
    (v) =>
      typeof v.k === 'string' && v.k.length <= 10 && Number.isInteger(v.p) && isKeyId(v.id)
        ? { k: v.k, p: v.p as number, id: v.id }
        : null,
    'Open the site console again from your websites.',
  );
