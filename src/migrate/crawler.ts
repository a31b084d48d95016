// The bounded crawler of migrate_site_from_url (SPEC §4.5, §8 "the crawl is bounded"): same-site
// links only, robots.txt respected (robots-parser), bounded in pages, depth, bytes, time and
// concurrency; every request goes through the SSRF guard (guardedFetch). Reports what it could not do.
import robotsParserModule from 'robots-parser';
import * as cheerio from 'cheerio';
import { Refusal, invalidInput } from '../domain/errors.js';
import { FetchFailure, guardedFetch } from './fetch.js';
import type { Guard } from './ssrf.js';

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

export type CrawledPage = { url: URL; html: string; depth: number; order: number };
export type CrawlResult = {
  pages: CrawledPage[];
  failed: Array<{ path: string; reason: string }>;
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

/** Same-site page links of a document, normalised (no fragment), in document order. */
export function pageLinks(html: string, base: URL): URL[] {
  const $ = cheerio.load(html);
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
  const seen = new Set<string>([startUrl.href]);
  const queue: Array<{ url: URL; depth: number; order: number }> = [];
  let discovered = 0;
  let bytes = first.body.length;
  let attempts = 1;
  const accept = (html: string, url: URL, depth: number, order: number) => {
    result.pages.push({ url, html, depth, order });
    for (const link of pageLinks(html, url)) {
      if (seen.has(link.href)) continue;
      seen.add(link.href);
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
      if (r.url.href !== next.url.href) {
        if (seen.has(r.url.href)) return; // a redirect to a page we already have
        seen.add(r.url.href);
      }
      if (!r.contentType.includes('html')) {
        result.failed.push({ path: next.url.pathname, reason: 'not_html' });
        return;
      }
      accept(r.body.toString('utf8'), r.url, next.depth, next.order);
    } catch (err) {
      if (err instanceof Refusal) result.failed.push({ path: next.url.pathname, reason: err.code });
      else if (err instanceof FetchFailure && err.reason === 'robots') result.robotsBlocked += 1;
      else if (err instanceof FetchFailure)
        result.failed.push({ path: next.url.pathname, reason: err.reason });
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
  result.failed.sort((a, b) => a.path.localeCompare(b.path));
  return result;
}
