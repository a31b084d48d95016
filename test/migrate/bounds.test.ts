// The crawl's bounds and the converter's safety (R-MIG-1, R-MIG-2: "the crawl is
// bounded"): pages, depth, bytes per page and concurrency are enforced; DNS answers are pinned; any
// HTML the converter meets becomes content that passes the section schemas.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSectionContent } from '../../src/domain/sections/types.js';
import { convertPage, safeText } from '../../src/migrate/convert.js';
import { makeResolver, markdown } from '../../src/web/render/markdown.js';
import { CRAWL_DEFAULTS, crawl } from '../../src/migrate/crawler.js';
import { type Guard, createGuard } from '../../src/net/ssrf.js';
import { type FixtureSite, manyPages, startFixtureSite } from './fixture-site.js';

let site: FixtureSite;
let guard: Guard;
beforeAll(async () => {
  site = await startFixtureSite({
    ...manyPages(30),
    '/deep/1': '<a href="/deep/2">2</a><p>one</p>',
    '/deep/2': '<a href="/deep/3">3</a><p>two</p>',
    '/deep/3': '<p>three</p>',
    '/huge': `<p>${'x'.repeat(300_000)}</p>`,
  });
  guard = createGuard({ allowHosts: [site.hostPort] });
});
afterAll(async () => {
  await guard?.close();
  await site?.close();
});

describe('crawl bounds', () => {
  it('never has more requests in flight than its concurrency', async () => {
    const r = await crawl(guard, `${site.base}/`, { ...CRAWL_DEFAULTS, concurrency: 2 });
    expect(r.pages).toHaveLength(30);
    expect(r.truncated).toBe(false);
    expect(site.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('stops at maxPages and reports truncated', async () => {
    const r = await crawl(guard, `${site.base}/`, { ...CRAWL_DEFAULTS, maxPages: 5 });
    expect(r.pages.length + r.failed.length).toBe(5);
    expect(r.truncated).toBe(true);
  });

  it('stops at maxDepth and reports truncated', async () => {
    const r = await crawl(guard, `${site.base}/deep/1`, { ...CRAWL_DEFAULTS, maxDepth: 1 });
    expect(r.pages.map((p) => p.url.pathname)).toEqual(['/deep/1', '/deep/2']);
    expect(r.truncated).toBe(true);
  });

  it('stops at its time budget and reports truncated', async () => {
    // Each fixture answer takes at least 10 ms, so 30 pages one at a time cannot fit in 100 ms.
    const r = await crawl(guard, `${site.base}/`, { ...CRAWL_DEFAULTS, concurrency: 1, timeMs: 100 });
    expect(r.truncated).toBe(true);
    expect(r.pages.length).toBeLessThan(30);
  });

  it('stops at its total byte budget and reports truncated', async () => {
    const r = await crawl(guard, `${site.base}/`, { ...CRAWL_DEFAULTS, maxBytesTotal: 1 });
    expect(r.pages).toHaveLength(1);
    expect(r.truncated).toBe(true);
  });

  it('refuses a page over the byte cap', async () => {
    const r = await crawl(guard, `${site.base}/`, { ...CRAWL_DEFAULTS, maxBytesPerPage: 200_000 });
    expect(r.failed).toEqual([]); // /huge is not linked from home
    await expect(
      crawl(guard, `${site.base}/huge`, { ...CRAWL_DEFAULTS, maxBytesPerPage: 200_000 }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('DNS pinning', () => {
  it('resolves a host once per guard: a later, different answer is never used', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    let calls = 0;
    const g = createGuard({ resolve: async () => answers[Math.min(calls++, 1)]! });
    const u = new URL('http://rebind.example.com/');
    expect(await g.pin(u)).toBe('93.184.216.34');
    expect(await g.pin(u)).toBe('93.184.216.34');
    expect(calls).toBe(1);
    await g.close();
  });
});

describe('converter', () => {
  it('turns any text into content the section schemas accept', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        const body = safeText(`${s} <script>x</script> javascript:alert(1) data:text/html,<b>`, 20_000);
        expect(parseSectionContent('text', { body })).toMatchObject({ ok: true });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps text and images, drops scripts, styles, forms, embeds and event handlers', () => {
    const html = `<html><head><title>T <b>x</b></title><style>body{}</style></head><body>
      <main><h1 onclick="evil()">Hello</h1><p>Intro</p><img src="/a.png" alt="A" onerror="evil()">
      <h2>More</h2><p>See <a href="javascript:alert(1)">this</a> data: here</p>
      <script>evil()</script><iframe src="https://maps.example.com/x"></iframe>
      <form><input></form></main></body></html>`;
    const c = convertPage(html, new URL('https://shop.example.com/about'), (u) => `asset:${u}`);
    expect(c.sections.map((x) => x.type)).toEqual(['hero', 'text', 'contact']);
    expect(c.images).toEqual([{ url: 'https://shop.example.com/a.png', alt: 'A' }]);
    const json = JSON.stringify(c.sections);
    for (const bad of ['evil', '<script', 'maps.example.com', 'onerror', 'javascript:'])
      expect(json).not.toContain(bad);
    expect(c.actions).toHaveLength(2);
  });
});

describe('converter on text that reads as Markdown', () => {
  /** The page converted: every section accepted, and the text sections as the site shows them. */
  function shownAs(body: string): string {
    const c = convertPage(
      `<html><body>${body}</body></html>`,
      new URL('https://x.example/'),
      () => `asset_${'0'.repeat(16)}`,
    );
    for (const s of c.sections) expect(parseSectionContent(s.type, s.content)).toMatchObject({ ok: true });
    return c.sections
      .filter((s) => s.type === 'text')
      .map((s) => markdown(String(s.content.body), makeResolver('/')))
      .join('\n');
  }

  it('keeps tildes in a row as written: shown as tildes, not struck through', () => {
    const html = shownAs(
      '<p><a href="">0~~0</a> 0~~0 and ~~~ too</p>' +
        // A heading inside a text section, built from the element's text.
        '<h2 class="col"><a href="">!</a> !</h2><h3 class="col"><a href="">Hours ~~ soon</a> x</h3>',
    );
    expect(html).toContain('0~~0 0~~0 and ~~~ too');
    expect(html).toMatch(/<h3>Hours ~~ soon x<\/h3>/);
    expect(html).not.toMatch(/<s>|<del>/);
  });

  it('keeps an exclamation mark before a link as text: "!" and a link, never an image', () => {
    const html = shownAs(
      '<p>Wow!<a href="/menu">menu</a></p><ul><li>Yes!</li><li><a href="/a">A</a></li></ul>',
    );
    expect(html).not.toContain('<img');
    expect(html).toMatch(/Wow! <a href="https:\/\/x\.example\/menu"[^>]*>menu<\/a>/);
  });

  it('keeps brackets and backslashes as written: no reference definition, no broken link', () => {
    const html = shownAs('<p>[1]: see below</p><p><a href="/dir">C:\\</a> and [a](b)</p>');
    expect(html).toContain('[1]: see below');
    expect(html).toMatch(/<a href="https:\/\/x\.example\/dir"[^>]*>C:\\<\/a> and \[a\]\(b\)/);
  });
});

describe('converter on arbitrary markup', () => {
  it('always produces sections the schemas accept', () => {
    const tags = ['p', 'div', 'section', 'h1', 'h2', 'h3', 'li', 'blockquote', 'figure', 'header', 'footer'];
    const node = fc.tuple(
      fc.constantFrom(...tags),
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(node, { maxLength: 12 }), (parts) => {
        const body = parts
          .map(
            ([t, text, href]) =>
              `<${t} class="${t === 'div' ? 'row' : 'col'}"><a href="${href}">${text}</a> ${text}<img src="/i${text.length}.png" alt="${text}"></${t}>`,
          )
          .join('');
        const c = convertPage(
          `<html><body><header class="masthead"><h1>T</h1></header>${body}</body></html>`,
          new URL('https://x.example/'),
          () => `asset_${'0'.repeat(16)}`,
        );
        for (const s of c.sections)
          expect(parseSectionContent(s.type, s.content)).toMatchObject({ ok: true });
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 200) },
    );
  });
});
