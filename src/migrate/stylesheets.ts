// The site's own stylesheets, read so background images set in CSS come along (R-MIG-3). Only
// same-origin `<link rel=stylesheet>` files are fetched (a framework on a CDN styles no image of the
// site's own), through the same SSRF guard as every page, bounded in count, bytes and time.
import type { CrawledPage } from './crawler.js';
import type { Sheet } from './css.js';
import { FetchFailure, guardedFetch } from '../net/fetch.js';
import { type Guard, isUnsafe } from '../net/ssrf.js';

// 5 s: with the crawl (35 s) and the images (15 s) a migration still answers inside an MCP client's 60 s.
const STYLESHEET_LIMITS = { count: 12, bytesEach: 1024 * 1024, timeMs: 5_000 };

/** Per page, its stylesheets in document order: fetched `<link>` files and inline `<style>` blocks. */
export async function loadStylesheets(
  guard: Guard,
  pages: readonly CrawledPage[],
): Promise<Map<CrawledPage, Sheet[]>> {
  const wanted: string[] = [];
  for (const page of pages)
    for (const r of page.signals.sheets) {
      if (!('href' in r) || new URL(r.href).origin !== page.url.origin) continue;
      if (!wanted.includes(r.href)) wanted.push(r.href);
    }
  const fetched = new Map<string, string>();
  const deadline = Date.now() + STYLESHEET_LIMITS.timeMs;
  await Promise.all(
    wanted.slice(0, STYLESHEET_LIMITS.count).map(async (href) => {
      const left = deadline - Date.now();
      if (left <= 0) return;
      try {
        const r = await guardedFetch(guard, href, {
          maxBytes: STYLESHEET_LIMITS.bytesEach,
          timeoutMs: left,
          accept: 'text/css',
        });
        if (r.contentType.includes('css')) fetched.set(href, r.body.toString('utf8'));
      } catch (err) {
        // An unreadable (or unsafe) stylesheet only means fewer background images found.
        if (!(err instanceof FetchFailure) && !isUnsafe(err)) throw err;
      }
    }),
  );
  const out = new Map<CrawledPage, Sheet[]>();
  for (const page of pages) {
    const sheets: Sheet[] = [];
    for (const r of page.signals.sheets) {
      if ('inline' in r) sheets.push({ css: r.inline, base: page.url });
      else {
        const css = fetched.get(r.href);
        if (css !== undefined) sheets.push({ css, base: new URL(r.href) });
      }
    }
    out.set(page, sheets);
  }
  return out;
}
