// One page per distinct document (R-MIG-3): `/` and `/index.html`, `/about` and `/about/`, a page
// whose rel=canonical names another, and the same document served at two addresses are one page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_DEFAULTS, crawl, pageKey } from '../../src/migrate/crawler.js';
import { type Guard, createGuard } from '../../src/net/ssrf.js';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';

const home = `<html><body><h1>Home</h1>
  <a href="/index.html">Home again</a><a href="/about/">About</a><a href="/about">About, no slash</a>
  <a href="/print/about">Print</a><a href="/team">Team</a><a href="/team#people">Team people</a></body></html>`;
const about = '<html><body><h1>About</h1><p>Since 1987.</p></body></html>';
let site: FixtureSite;
let guard: Guard;
beforeAll(async () => {
  site = await startFixtureSite({
    '/': home,
    '/index.html': home,
    '/about/': about,
    '/about': about,
    '/print/about':
      '<html><head><link rel="canonical" href="/about/"></head><body><h1>About (print)</h1></body></html>',
    '/team': about.replace('About', 'About'), // the same document under another address
  });
  guard = createGuard({ allowHosts: [site.hostPort] });
});
afterAll(async () => {
  await guard?.close();
  await site?.close();
});

describe('canonical pages', () => {
  it('normalises index files and trailing slashes into one key', () => {
    const k = (p: string) => pageKey(new URL(p, 'http://x.example'));
    expect(k('/index.html')).toBe(k('/'));
    expect(k('/about/')).toBe(k('/about'));
    expect(k('/a/index.htm')).toBe(k('/a'));
    expect(k('/about?x=1')).not.toBe(k('/about'));
  });

  it('keeps one page per document and knows it by all its addresses', async () => {
    const r = await crawl(guard, `${site.base}/`, CRAWL_DEFAULTS);
    expect(r.pages.map((p) => p.url.pathname)).toEqual(['/', '/about/']);
    expect(site.hits.get('/index.html')).toBeUndefined(); // never fetched: same key as /
    expect(site.hits.get('/about')).toBeUndefined();
    const aboutKeys = r.pages[1]!.keys.map((k) => new URL(k).pathname).sort();
    expect(aboutKeys).toEqual(['/about', '/print/about', '/team']);
    expect(r.failed).toEqual([]);
  });
});
