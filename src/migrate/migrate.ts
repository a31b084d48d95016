// migrate_site_from_url (R-MIG-1): crawl (bounded, robots-respecting, SSRF-guarded) -> read
// the site's stylesheets -> plan the site (pages, posts, titles, paths) -> convert each page to sections
// -> a PortableSiteV1 payload -> the import pipeline (lenient about images: those that cannot be fetched
// or are not real images are skipped and listed) -> one committing transaction. The report is exact:
// every failed page and every skipped image is listed with its address and reason.
import * as cheerio from 'cheerio';
import type { DirectSiteCtx } from '../domain/context.js';
import { fetchAssets } from '../portable/assets.js';
import { type AuthorizeTarget, commitImport, type ImportResult } from '../portable/commit.js';
import { parsePortable, validateSections } from '../portable/prepare.js';
import type { PortableSiteV1 } from '../portable/schema.js';
import { type ConvertedPage, convertPage } from './convert.js';
import { CRAWL_DEFAULTS, type CrawlLimits, crawl } from './crawler.js';
import { backgroundImages } from './css.js';
import { requiredActions } from './report.js';
import { assetKeys, pageCtx, pageTitle, planSite, sectionKeys } from './site.js';
import { createGuard, type Guard } from '../net/ssrf.js';
import { loadStylesheets } from './stylesheets.js';
import { plural } from '../kernel/plural.js';

export type MigrateInput = {
  url: string;
  maxPages?: number;
  mergeIntoWebsiteId?: string;
  forceKeys?: string[];
};

export type MigrateReport = ImportResult & {
  pagesFetched: number;
  pagesFailed: number;
  truncated: boolean;
  assetsSkipped: number;
  actionsRequired: string[];
  /** Every page that could not be fetched: its address, a reason code and a sentence. */
  failedPages: Array<{ url: string; reason: string; detail: string }>;
  /** Every image that was found but not brought in, with the reason (assetsSkipped counts them). */
  skippedAssets: Array<{ url: string; reason: string }>;
};

/** Images a migration brings in at most; the rest are listed in skippedAssets. */
const MIGRATE_MAX_ASSETS = 60;
const NO_BACKGROUND = 'background image of a section whose type has no background (only heroes have one).';

export async function migrateSite(
  ctx: DirectSiteCtx,
  input: MigrateInput,
  deps: { authorizeTarget: AuthorizeTarget; guard?: Guard; limits?: Partial<CrawlLimits> },
): Promise<MigrateReport> {
  // The site limit was checked by the gate (createsSite) and is checked again in the commit.
  if (input.mergeIntoWebsiteId) await deps.authorizeTarget(ctx.db, input.mergeIntoWebsiteId);
  const guard = deps.guard ?? createGuard({ allowHosts: ctx.services.config.crawlAllowHosts });
  const limits: CrawlLimits = { ...CRAWL_DEFAULTS, ...deps.limits };
  if (input.maxPages) limits.maxPages = input.maxPages;
  try {
    const crawled = await crawl(guard, input.url, limits, (done, path) =>
      ctx.progress(done, limits.maxPages, `Fetched ${path}`),
    );
    const plan = planSite(
      crawled.pages,
      crawled.failed.map((f) => f.url),
    );
    const sheets = await loadStylesheets(guard, crawled.pages);
    const origin = crawled.pages[0]?.url.origin ?? '';
    const keys = assetKeys(origin);
    // One page parsed at a time: its DOM is dropped before the next is read.
    const converted = plan.pages.map((p) => {
      const $ = cheerio.load(p.crawled.html);
      const backgrounds = backgroundImages($, sheets.get(p.crawled) ?? [], p.crawled.url);
      return convertPage($, p.crawled.url, pageCtx(plan, p, keys.ref, backgrounds));
    });
    const logo = plan.logoUrl ? keys.ref(plan.logoUrl) : null;
    const site = buildSite(plan, converted, keys.list(), logo);
    // A section the converter made that the schemas refuse is left out, and said so (never silently).
    const invalid = validateSections(site, new Set(), true);
    const assetUrl = new Map(site.assets.map((a) => [a.key, a.url]));
    const overCap = site.assets.slice(MIGRATE_MAX_ASSETS).map((a) => a.key);
    await ctx.progress(
      crawled.pages.length,
      undefined,
      `Fetching ${plural(Math.min(site.assets.length, MIGRATE_MAX_ASSETS), 'image')}`,
    );
    const fetched = await fetchAssets(guard, site.assets.slice(0, MIGRATE_MAX_ASSETS), {
      strict: false,
      maxCount: MIGRATE_MAX_ASSETS,
      timeMs: 15_000,
    });
    const skipped = new Set([...fetched.skipped, ...overCap]);
    const reasons = new Map(fetched.reasons);
    for (const k of overCap)
      reasons.set(
        k,
        `more than ${MIGRATE_MAX_ASSETS} images: only the first ${MIGRATE_MAX_ASSETS} are imported.`,
      );
    if (site.brand.logo && skipped.has(site.brand.logo.slice(6))) site.brand.logo = null;
    validateSections(site, skipped, true); // drops skipped images' references (listed in skippedAssets)
    pruneEmpty(site);
    site.assets = site.assets.filter((a) => !skipped.has(a.key));
    const checked = parsePortable(site);
    const result = await commitImport(ctx, checked, fetched, {
      mergeIntoWebsiteId: input.mergeIntoWebsiteId,
      forceKeys: input.forceKeys,
      authorizeTarget: deps.authorizeTarget,
      report: { pagesFetched: crawled.pages.length, pagesFailed: crawled.failed.length },
    });
    const imported = new Set(assetUrl.values());
    const backgrounds = [...new Set(converted.flatMap((c) => c.unusedBackgrounds))].filter(
      (u) => !imported.has(u),
    );
    // Each picture once: a fetch failure first, then a background with no place, then one not shown.
    const skippedAssets = [
      ...[...skipped].map((k) => ({ url: assetUrl.get(k)!, reason: reasons.get(k) ?? 'not imported.' })),
      ...backgrounds.map((url) => ({ url, reason: NO_BACKGROUND })),
      ...notShown(converted, new Set([...imported, ...backgrounds])),
    ].sort((a, b) => a.url.localeCompare(b.url));
    const failedPages = crawled.failed.map((f) => ({ url: f.url, reason: f.reason, detail: f.detail }));
    const actionsRequired = requiredActions(converted, crawled.pages, {
      failedPages,
      skippedAssets,
      dropped: invalid,
      unlinked: plan.unlinked,
    });
    const undated = plan.pages.filter((p) => p.isPost && !p.date).map((p) => p.path);
    if (undated.length)
      actionsRequired.push(
        `${plural(undated.length, 'post')} ${undated.length === 1 ? 'shows' : 'show'} no date on the old site (no <time>, no date by the headline or in the address), so they are dated the day of this migration: ${undated.slice(0, 8).join(', ')}${undated.length > 8 ? ', …' : ''}. Set their dates if you know them.`,
      );
    for (const p of plan.pages.filter((x) => x.isBlogIndex))
      actionsRequired.push(
        `${p.crawled.url.pathname} listed the posts: the blog's own index at /blog, which lists every post, takes its place, and links to it lead there. Its other words were not kept: add any you still need to a page.`,
      );
    // A re-sync appends a section that is new upstream to the end of a page that already existed.
    if (result.merge?.inserted)
      actionsRequired.push(
        `${plural(result.merge.inserted, 'section')} new since the last import ${result.merge.inserted === 1 ? 'was' : 'were'} added; on pages that already existed ${result.merge.inserted === 1 ? 'it was' : 'they were'} placed at the end: move ${result.merge.inserted === 1 ? 'it' : 'them'} into place with move_section if needed.`,
      );
    return {
      ...result,
      pagesFetched: crawled.pages.length,
      pagesFailed: failedPages.length,
      truncated: crawled.truncated,
      assetsSkipped: skippedAssets.length,
      actionsRequired,
      failedPages,
      skippedAssets,
    };
  } finally {
    if (!deps.guard) await guard.close();
  }
}

/** Pictures no page shows and no asset holds, once each: the first page's reason is given. */
function notShown(converted: readonly ConvertedPage[], imported: ReadonlySet<string>) {
  const out = new Map<string, string>();
  for (const c of converted)
    for (const x of c.unusedImages) if (!imported.has(x.url) && !out.has(x.url)) out.set(x.url, x.reason);
  return [...out].map(([url, reason]) => ({ url, reason }));
}

/** Sections left with nothing to show once skipped images are gone (a gallery of SVG logos). */
function pruneEmpty(site: PortableSiteV1): void {
  for (const page of site.pages) {
    page.sections = page.sections.filter((s) => {
      const c = s.content as { images?: unknown[]; items?: unknown[] };
      if (s.type === 'gallery') return (c.images?.length ?? 0) > 0;
      return true;
    });
  }
}

function buildSite(
  plan: ReturnType<typeof planSite>,
  converted: ConvertedPage[],
  assets: PortableSiteV1['assets'],
  logo: string | null,
): PortableSiteV1 {
  const home = converted[0];
  const name = plainName(plan.siteName ?? home?.siteName ?? home?.docTitle ?? 'Imported site');
  // A page that listed the posts is rebuilt by the service as the blog's own index (/blog).
  const order = plan.pages
    .map((p, i) => ({ p, c: converted[i]!, i }))
    .filter(({ p }) => !p.isBlogIndex)
    .sort((a, b) => {
      if (a.i === 0 || b.i === 0) return a.i === 0 ? -1 : 1;
      if (a.p.isPost !== b.p.isPost) return a.p.isPost ? 1 : -1;
      const ao = a.p.isPost ? a.p.previewOrder : a.p.navOrder;
      const bo = b.p.isPost ? b.p.previewOrder : b.p.navOrder;
      return ao - bo || a.i - b.i;
    });
  return {
    version: 1,
    name,
    businessName: name,
    // The design is rebuilt from the service's own sections and theme; the brand colour and logo carry over.
    brand: {
      palette: home?.themeColor ? { primary: home.themeColor } : {},
      fonts: {},
      style: '',
      voice: '',
      logo: logo as `asset:${string}` | null,
    },
    config: {},
    theme: {},
    fonts: {},
    pages: order.map(({ p, c }) => {
      const keys = sectionKeys(
        p.keyPrefix,
        c.sections.map((s) => s.identity ?? s.type),
      );
      return {
        slug: p.slug,
        title: pageTitle(p, c, plan.siteName),
        kind: p.isPost ? ('post' as const) : ('page' as const),
        excerpt: p.isPost ? (plan.previewExcerpts.get(p.path) ?? c.excerpt) : null,
        ...(p.isPost && p.date ? { date: p.date } : {}),
        seo: { title: c.docTitle || null, description: c.seoDescription },
        sections: c.sections.map((s, n) => ({
          type: s.type,
          content: s.content,
          layout: {},
          hidden: false,
          externalKey: keys[n]!,
        })),
      };
    }),
    assets,
  };
}

function plainName(s: string): string {
  return s.replace(/[<>]/g, '').trim().slice(0, 200) || 'Imported site';
}
