// Which pages are posts and which page is the posts' index, from what the pages show: a blog index at
// /blog/ (even with one post) and a Clean-Blog-style index at /x/blog/index.html whose previews carry
// post-meta lines give way to the blog's own index at /blog, and their posts are posts; a page that
// links one post from a card is still a page.
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { type CrawledPage, pageKey } from '../../src/migrate/crawler.js';
import { readSignals } from '../../src/migrate/signals.js';
import { pageCtx, planSite } from '../../src/migrate/site.js';

const ORIGIN = 'https://studio.example.com';

function crawled(pages: Array<[string, string]>): CrawledPage[] {
  return pages.map(([path, body], order) => {
    const url = new URL(path, ORIGIN);
    const html = `<html><head><title>T</title></head><body>${body}</body></html>`;
    return {
      url,
      html,
      depth: 1,
      order,
      keys: [pageKey(url)],
      signals: readSignals(cheerio.load(html), url),
    };
  });
}

const NAV = '<nav><a href="/">Home</a><a href="/blog/">Journal</a></nav>';
const POST = (title: string) =>
  `${NAV}<article><header><h1>${title}</h1><p>Posted on March 8, 2026 by Rhian</p></header><p>Words.</p></article>`;

describe('the posts and their index', () => {
  it('a /blog/ index with a single post preview gives way to /blog; links to it lead there', () => {
    const plan = planSite(
      crawled([
        ['/', `${NAV}<h1>Studio</h1><p>See <a href="/blog/">the journal</a>.</p>`],
        [
          '/blog/',
          `${NAV}<h1>Journal</h1><div class="card"><h2><a href="/blog/first.html">First firing</a></h2><div class="small">April 2, 2026</div></div>`,
        ],
        ['/blog/first.html', POST('First firing')],
      ]),
      [],
    );
    const [home, index, post] = plan.pages;
    expect(index).toMatchObject({ isBlogIndex: true, isPost: false, path: '/blog' });
    expect(post).toMatchObject({ isPost: true, path: '/blog/first' });
    expect(pageCtx(plan, home!, (u) => u, new Map()).link('/blog/')).toBe('/blog');
    expect(pageCtx(plan, home!, (u) => u, new Map()).postPath('/blog/first.html')).toBe('/blog/first');
  });

  it('a Clean-Blog-style index at /x/blog/index.html is not a post, though its previews carry post-meta', () => {
    const preview = (href: string, title: string) =>
      `<div class="post-preview"><a href="${href}"><h2 class="post-title">${title}</h2></a><p class="post-meta">Posted by <a href="#!">Rhian</a> on April 2, 2026</p></div>`;
    const plan = planSite(
      crawled([
        ['/x/', `${NAV}<h1>Studio</h1><a href="blog/index.html">Journal</a>`],
        [
          '/x/blog/index.html',
          `<header class="masthead"><h1>Journal</h1></header>${preview('a.html', 'A')}${preview('b.html', 'B')}`,
        ],
        ['/x/blog/a.html', POST('A')],
        ['/x/blog/b.html', POST('B')],
      ]),
      [],
    );
    expect(plan.pages.map((p) => [p.isPost, p.isBlogIndex])).toEqual([
      [false, false],
      [false, true],
      [true, false],
      [true, false],
    ]);
  });

  it("a template's blog-home whose cards link nowhere yet is the index when the site has a post", () => {
    const card = (title: string) =>
      `<div class="card mb-4"><div class="card-body"><div class="small text-muted">January 1, 2026</div><h2 class="card-title">${title}</h2><a class="btn btn-primary" href="#!">Read more →</a></div></div>`;
    const plan = planSite(
      crawled([
        ['/', `${NAV}<h1>Studio</h1><a href="blog-home.html">Blog</a><a href="blog-post.html">Post</a>`],
        [
          '/blog-home.html',
          `<header><h1>Welcome to Blog Home!</h1></header>${card('Featured')}${card('Second')}`,
        ],
        ['/blog-post.html', POST('Welcome to Blog Post!')],
      ]),
      [],
    );
    expect(plan.pages[1]).toMatchObject({ isBlogIndex: true, path: '/blog' });
    expect(plan.pages[2]).toMatchObject({ isPost: true });
    // Without a post on the site, the same page is a page.
    const alone = planSite(
      crawled([
        ['/', '<h1>Home</h1>'],
        ['/blog-home.html', card('A') + card('B')],
      ]),
      [],
    );
    expect(alone.pages[1]).toMatchObject({ isBlogIndex: false, isPost: false });
  });

  it('a post whose article links to other pages is still a post', () => {
    const plan = planSite(
      crawled([
        ['/', `${NAV}<h1>Studio</h1>`],
        [
          '/notes/glaze.html',
          `<article class="post"><h1>Glaze</h1><p class="post-meta">Posted on March 8, 2026</p><p>See <a href="/about.html">about</a> and <a href="/classes.html">classes</a>.</p></article>`,
        ],
      ]),
      [],
    );
    expect(plan.pages[1]).toMatchObject({ isPost: true, isBlogIndex: false });
  });

  it('a page that previews one post elsewhere than /blog stays a page', () => {
    const plan = planSite(
      crawled([
        ['/', `${NAV}<h1>Studio</h1>`],
        [
          '/about.html',
          `${NAV}<h1>About</h1><div class="card"><a href="/blog/first.html"><h3>First firing</h3></a><span>April 2, 2026</span></div>`,
        ],
        ['/blog/first.html', POST('First firing')],
      ]),
      [],
    );
    expect(plan.pages[1]).toMatchObject({ isBlogIndex: false, isPost: false, path: '/about' });
    expect(plan.pages[2]).toMatchObject({ isPost: true });
  });
});
