// The bounded crawler of migrate_site_from_url (R-MIG-1): same-site
// links only, robots.txt respected (robots-parser), bounded in pages, depth, bytes, time and
// concurrency; every request goes through the SSRF guard (guardedFetch). Reports what it could not do.
import { createHash } from 'node:crypto';
import robotsParserModule from 'robots-parser';
import * as cheerio from 'cheerio';
import { Refusal, invalidInput } from '../kernel/errors.js';
import { FetchFailure, guardedFetch } from '../net/fetch.js';
import { type PageSignals, readSignals } from './signals.js';
import type { Guard } from '../net/ssrf.js';

export type CrawlLimits = {
  maxPages: number;
  maxDepth: number;
  maxBytesPerPage: number;
  maxBytesTotal: number;
  timeMs: number;
  concurrency: number;
};

export const CRAWL_DEFAULTS: CrawlLimits = {
  maxPages: 50,
  maxDepth: 4,
  maxBytesPerPage: 2 * 1024 * 1024,
  maxBytesTotal: 40 * 1024 * 1024,
  timeMs: 35_000, // with the image fetch, a migration answers inside an MCP client's 60 s default
  concurrency: 4,
};

export type CrawledPage = {
  url: URL;
  html: string;
  depth: number;
  order: number;
  /** pageKey()s that name this document: its own, the address that redirected here, its canonical. */
  keys: string[];
  /** What site planning needs, read while the page was parsed here (signals.ts). */
  signals: PageSignals;
};
export type CrawlResult = {
  pages: CrawledPage[];
  /** Pages that could not be fetched: the address, a stable reason code and a sentence for the owner. */
  failed: Array<{ path: string; url: string; reason: string; detail: string }>;
  truncated: boolean;
  robotsBlocked: number;
};

const NOT_PAGE =
  /\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|zip|gz|mp4|mp3|mov|css|js|json|xml|txt|docx?|xlsx?)$/i;
const ROBOTS_AGENT = 'SitegateBot';

type Robots = { isAllowed(url: string, ua?: string): boolean | undefined };
// robots-parser is CommonJS and its typings declare the module loosely: its export is the function.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robots;

async function loadRobots(guard: Guard, origin: string): Promise<Robots> {
  const url = `${origin}/robots.txt`;
  try {
    const r = await guardedFetch(guard, url, {
      maxBytes: 512 * 1024,
      timeoutMs: 10_000,
      accept: 'text/plain',
    });
    return robotsParser(url, r.body.toString('utf8'));
  } catch (err) {
    if (err instanceof FetchFailure) return robotsParser(url, ''); // no robots.txt: everything allowed
    throw err;
  }
}

/**
 * One key per document (R-MIG-3: "one page per distinct document"): `/`, `/index.html` and
 * `/about/` vs `/about` name the same page. The query string is kept (it may select content).
 */
export function pageKey(u: URL): string {
  let p = u.pathname.replace(/\/index\.(?:html?|php|aspx?)$/i, '/');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return `${u.origin}${p}${u.search}`;
}

/** The same-origin `<link rel=canonical>` of a document, if it names one. */
function canonicalOf($: cheerio.CheerioAPI, url: URL): URL | null {
  const href = $('link[rel~="canonical" i][href]').first().attr('href');
  if (!href) return null;
  try {
    const c = new URL(href, url);
    return c.origin === url.origin ? c : null;
  } catch {
    return null;
  }
}

/** Same-site page links of a document, normalised (no fragment), in document order. */
function pageLinks($: cheerio.CheerioAPI, base: URL): URL[] {
  const out: URL[] = [];
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    try {
      const u = new URL(href, base);
      if (u.origin !== base.origin || NOT_PAGE.test(u.pathname)) return;
      u.hash = '';
      out.push(u);
    } catch {
      // not an address: ignored
    }
  });
  return out;
}

export async function crawl(
  guard: Guard,
  start: string,
  limits: CrawlLimits,
  onPage: (done: number, path: string) => Promise<void> = async () => {},
): Promise<CrawlResult> {
  const deadline = Date.now() + limits.timeMs;
  let startUrl = guard.check(start);
  let robots = await loadRobots(guard, startUrl.origin);
  if (robots.isAllowed(startUrl.href, ROBOTS_AGENT) === false) {
    throw new Refusal(
      'robots_disallowed',
      "The site's robots.txt does not allow fetching that address.",
      'Ask the site owner to allow SitegateBot, or import a PortableSiteV1 export instead.',
    );
  }
  const result: CrawlResult = { pages: [], failed: [], truncated: false, robotsBlocked: 0 };
  // The first page decides the site's origin (http -> https redirects are common).
  let first: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    first = await guardedFetch(guard, startUrl, {
      maxBytes: limits.maxBytesPerPage,
      timeoutMs: Math.min(20_000, limits.timeMs),
      accept: 'text/html',
    });
  } catch (err) {
    if (err instanceof FetchFailure) throw invalidInput(`The address could not be fetched: ${err.message}`);
    throw err;
  }
  if (!first.contentType.includes('html')) throw invalidInput('That address is not an HTML page.');
  if (first.url.origin !== startUrl.origin) robots = await loadRobots(guard, first.url.origin);
  startUrl = first.url;
  const origin = startUrl.origin;
  const seen = new Set<string>([pageKey(startUrl)]);
  const bodies = new Map<string, CrawledPage>(); // identical documents under two addresses are one page
  const queue: Array<{ url: URL; depth: number; order: number }> = [];
  let discovered = 0;
  let bytes = first.body.length;
  let attempts = 1;
  const byKey = new Map<string, CrawledPage>();
  const accept = (html: string, url: URL, depth: number, order: number, requested?: URL) => {
    const keys = new Set([pageKey(url)]);
    if (requested) keys.add(pageKey(requested));
    const $ = cheerio.load(html); // parsed once for its canonical address and its links
    const canonical = canonicalOf($, url);
    if (canonical) keys.add(pageKey(canonical));
    const digest = createHash('sha256').update(html).digest('hex');
    const same = [...keys].map((k) => byKey.get(k)).find(Boolean) ?? bodies.get(digest);
    if (same) {
      // The same document under another address: one page, known by every key.
      for (const k of keys) if (!same.keys.includes(k)) same.keys.push(k);
      for (const k of keys) byKey.set(k, same);
      return;
    }
    for (const k of keys) seen.add(k);
    const page: CrawledPage = { url, html, depth, order, keys: [...keys], signals: readSignals($, url) };
    for (const k of keys) byKey.set(k, page);
    bodies.set(digest, page);
    result.pages.push(page);
    for (const link of pageLinks($, url)) {
      const key = pageKey(link);
      if (seen.has(key)) continue;
      seen.add(key);
      if (robots.isAllowed(link.href, ROBOTS_AGENT) === false) {
        result.robotsBlocked += 1;
        continue;
      }
      if (depth + 1 > limits.maxDepth) {
        result.truncated = true;
        continue;
      }
      queue.push({ url: link, depth: depth + 1, order: ++discovered });
    }
  };
  accept(first.body.toString('utf8'), startUrl, 0, 0);
  await onPage(1, startUrl.pathname);

  const fail = (url: URL, reason: string, detail: string) =>
    result.failed.push({ path: url.pathname, url: url.href, reason, detail });
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const fetchOne = async (next: { url: URL; depth: number; order: number }) => {
    try {
      const r = await guardedFetch(guard, next.url, {
        maxBytes: limits.maxBytesPerPage,
        timeoutMs: Math.max(1, Math.min(20_000, deadline - Date.now())),
        accept: 'text/html',
        sameOrigin: origin,
        beforeRedirect: (to) => {
          if (robots.isAllowed(to.href, ROBOTS_AGENT) === false) {
            throw new FetchFailure('robots', 'The page redirects to an address robots.txt disallows.');
          }
        },
      });
      bytes += r.body.length;
      if (pageKey(r.url) !== pageKey(next.url)) {
        const have = byKey.get(pageKey(r.url));
        if (have) {
          // A redirect to a page we already have: links to the old address lead there too.
          if (!have.keys.includes(pageKey(next.url))) have.keys.push(pageKey(next.url));
          return;
        }
        if (seen.has(pageKey(r.url))) return; // being fetched by another worker
        seen.add(pageKey(r.url));
      }
      if (!r.contentType.includes('html')) {
        fail(next.url, 'not_html', 'The address does not answer with an HTML page.');
        return;
      }
      accept(r.body.toString('utf8'), r.url, next.depth, next.order, next.url);
    } catch (err) {
      if (err instanceof Refusal) fail(next.url, err.code, err.message);
      else if (err instanceof FetchFailure && err.reason === 'robots') result.robotsBlocked += 1;
      else if (err instanceof FetchFailure) fail(next.url, err.reason, err.message);
      else throw err;
    }
    await onPage(result.pages.length, next.url.pathname);
  };
  // A small pool: a worker with an empty queue waits while others may still find links.
  const worker = async (): Promise<void> => {
    for (;;) {
      if (queue.length === 0) {
        if (inFlight === 0) return wake();
        await new Promise<void>((r) => waiters.push(r));
        continue;
      }
      if (attempts >= limits.maxPages || Date.now() > deadline || bytes > limits.maxBytesTotal) {
        result.truncated = true;
        queue.length = 0;
        return wake();
      }
      const next = queue.shift()!;
      attempts += 1;
      inFlight += 1;
      try {
        await fetchOne(next);
      } finally {
        inFlight -= 1;
        wake();
      }
    }
  };
  await Promise.all(Array.from({ length: limits.concurrency }, worker));
  if (queue.length) result.truncated = true;
  // Discovery order, not completion order: the same site always gives the same pages in the same order.
  result.pages.sort((a, b) => a.order - b.order);
  result.failed.sort((a, b) => a.url.localeCompare(b.url));
  return result;
}
