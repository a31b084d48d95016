// migrate_site_from_url (SPEC §4.5): crawl (bounded, robots-respecting, SSRF-guarded) -> convert each
// page to sections -> a PortableSiteV1 payload -> the import pipeline (lenient about images: those that
// cannot be fetched or are not real images are skipped and counted) -> one committing transaction.
import type { SiteCtx } from '../domain/context.js';
import { fetchAssets } from '../portable/assets.js';
import { type AuthorizeTarget, checkSiteLimit, commitImport, type ImportResult } from '../portable/commit.js';
import { parsePortable, validateSections } from '../portable/prepare.js';
import type { PortableSiteV1 } from '../portable/schema.js';
import { type ConvertedPage, convertPage, slugFor } from './convert.js';
import { CRAWL_DEFAULTS, type CrawlLimits, crawl } from './crawler.js';
import { createGuard, type Guard } from './ssrf.js';

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
};

/** Images a migration brings in at most; the rest are counted in assetsSkipped. */
export const MIGRATE_MAX_ASSETS = 60;

export async function migrateSite(
  ctx: SiteCtx,
  input: MigrateInput,
  deps: { authorizeTarget: AuthorizeTarget; guard?: Guard; limits?: Partial<CrawlLimits> },
): Promise<MigrateReport> {
  if (input.mergeIntoWebsiteId) await deps.authorizeTarget(ctx.tx, input.mergeIntoWebsiteId);
  else await checkSiteLimit(ctx.tx, ctx.actor.companyId, false);
  const guard = deps.guard ?? createGuard({ allowHosts: ctx.services.config.crawlAllowHosts });
  const limits: CrawlLimits = { ...CRAWL_DEFAULTS, ...deps.limits };
  if (input.maxPages) limits.maxPages = input.maxPages;
  try {
    const crawled = await crawl(guard, input.url, limits, (done, path) =>
      ctx.progress(done, limits.maxPages, `Fetched ${path}`),
    );
    const keyOf = new Map<string, string>();
    const assetRef = (u: string) => {
      let k = keyOf.get(u);
      if (!k) {
        k = `img-${keyOf.size + 1}`;
        keyOf.set(u, k);
      }
      return `asset:${k}`;
    };
    const converted = crawled.pages.map((p) => convertPage(p.html, p.url, assetRef));
    const site = buildSite(converted, crawled.pages[0]?.url.hostname ?? 'site', keyOf);
    const overCap = site.assets.slice(MIGRATE_MAX_ASSETS).map((a) => a.key);
    await ctx.progress(
      crawled.pages.length,
      undefined,
      `Fetching ${Math.min(site.assets.length, MIGRATE_MAX_ASSETS)} image(s)`,
    );
    const fetched = await fetchAssets(guard, site.assets.slice(0, MIGRATE_MAX_ASSETS), {
      strict: false,
      maxCount: MIGRATE_MAX_ASSETS,
      timeMs: 15_000,
    });
    const skipped = new Set([...fetched.skipped, ...overCap]);
    validateSections(site, skipped, true); // drops skipped images' references (and sections that need them)
    site.assets = site.assets.filter((a) => !skipped.has(a.key));
    const checked = parsePortable(site);
    const result = await commitImport(ctx, checked, fetched, {
      mergeIntoWebsiteId: input.mergeIntoWebsiteId,
      forceKeys: input.forceKeys,
      authorizeTarget: deps.authorizeTarget,
    });
    const actions = [...new Set(converted.flatMap((c) => c.actions))];
    const scripts = crawled.pages.reduce((n, p) => n + countScripts(p.html), 0);
    if (scripts)
      actions.push(
        `Re-add any third-party scripts you still need (analytics, chat): ${scripts} script(s) were left out.`,
      );
    return {
      ...result,
      pagesFetched: crawled.pages.length,
      pagesFailed: crawled.failed.length,
      truncated: crawled.truncated,
      assetsSkipped: skipped.size,
      actionsRequired: actions,
    };
  } finally {
    if (!deps.guard) await guard.close();
  }
}

function countScripts(html: string): number {
  const BOOKING =
    /calendly|acuity|squareup|setmore|simplybook|fresha|booksy|opentable|resy|youcanbook|tockhq|cal\.com/i;
  let n = 0;
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    if (/type\s*=\s*["']?application\/(ld\+)?json/i.test(m[1] ?? '')) continue;
    if (!BOOKING.test(m[1] ?? '')) n += 1;
  }
  return n;
}

function buildSite(pages: ConvertedPage[], host: string, keyOf: Map<string, string>): PortableSiteV1 {
  const slugs = new Set<string>();
  const home = pages[0];
  const name = plainName(home?.siteName ?? home?.title ?? host);
  return {
    version: 1,
    name: name.slice(0, 200),
    businessName: name.slice(0, 200),
    // The design is rebuilt from the service's own sections and theme; only the brand colour carries over.
    brand: {
      palette: home?.themeColor ? { primary: home.themeColor } : {},
      fonts: {},
      style: '',
      voice: '',
      logo: null,
    },
    config: {},
    theme: {},
    fonts: {},
    pages: pages.map((p, i) => {
      let slug = i === 0 ? 'home' : slugFor(p.path);
      for (let n = 2; slugs.has(slug); n++) slug = `${slugFor(p.path)}-${n}`;
      slugs.add(slug);
      return {
        slug,
        title: plainName(p.title),
        kind: 'page' as const,
        excerpt: null,
        seo: { title: p.title, description: p.seoDescription },
        sections: p.sections.map((s, n) => ({ ...s, externalKey: `${slug}#${n}` })),
      };
    }),
    assets: [...keyOf].map(([url, key]) => ({ key, url })),
  };
}

function plainName(s: string): string {
  return s.replace(/[<>]/g, '').trim().slice(0, 200) || 'Imported site';
}
