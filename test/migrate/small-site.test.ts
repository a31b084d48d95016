// A small site of the kind a new owner brings, migrated with migrate_site_from_url: its
// header logo becomes the brand's logo, mailto:/tel: links and a call-to-action band's button keep
// their targets, a table stays a table with the link in its row, each post keeps the date the old
// site shows (a <time>, a line under the headline) and one with no date is named in the report, a
// long post is kept whole across body sections, a paragraph too long for any section is cut and the
// report says where, and the asset report counts exactly the pictures that did not come along.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assets, brands, pages, sections } from '../../src/db/schema.js';
import { reencodeImage } from '../../src/portable/assets.js';
import { type ServedSite, fixtureImage, serveSite } from '../fixtures/serve.js';
import { toolKit } from '../tools/kit.js';

const HEAD = (title: string, extra = '') =>
  `<!doctype html><html><head><title>${title} | Small Co</title>${extra}</head><body><header><a href="/"><img src="/img/logo.png" alt="Small Co"></a><nav><a href="/">Home</a><a href="/blog.html">Blog</a><a href="/contact.html">Contact</a></nav></header><main>`;
const FOOT = '</main><footer><p>Small Co, 1 Quay Row</p></footer></body></html>';
const PARAS = Array.from(
  { length: 140 },
  (_, i) =>
    `Paragraph ${i + 1} of the long crossing: the tide turned at ${i % 12} o'clock and we rowed on, counting strokes, until the light on the point came round again and the harbour wall showed grey.`,
);
const GIANT = `A single paragraph that never ends: ${'and the rope went on and on '.repeat(800)}`;

const FILES: Record<string, string> = {
  'index.html': `${HEAD('Home')}<h1>Boats mended on the quay</h1><p>Call <a href="tel:+441632960111">01632 960111</a> or write to <a href="mailto:yard@small.example?subject=Hello">yard@small.example</a>.</p>
    <table><tr><th>Job</th><th>Price</th><th>More</th></tr><tr><td>Antifouling</td><td>£240</td><td><a href="/contact.html">Book</a></td></tr><tr><td>Winter storage</td><td>£90 a month</td><td><a href="/contact.html">Ask</a></td></tr></table>
    <img src="/img/missing.jpg" alt="A photo that is gone">
    <div class="band"><h2>Hull needs a look?</h2><p>We answer the same day.</p><a class="pill" href="/contact.html">Ask for a visit</a></div>${FOOT}`,
  'contact.html': `${HEAD('Contact')}<h1>Contact</h1><p>Find us on the quay.</p>${FOOT}`,
  'blog.html': `${HEAD('Blog')}<h1>Blog</h1><ul>
    <li><a href="/posts/timed.html">Timed post</a> <span>6 May 2024</span></li>
    <li><a href="/posts/long.html">A long crossing</a> <span>7 June 2024</span></li>
    <li><a href="/posts/undated.html">No date here</a> <span>June 2024</span></li></ul>${FOOT}`,
  'posts/timed.html': `${HEAD('Timed post')}<article><header><h1>Timed post</h1><p>By Ann · <time datetime="2024-05-06T08:30:00Z">6 May 2024</time></p></header><p>Short and dated.</p></article>${FOOT}`,
  'posts/long.html': `${HEAD('A long crossing')}<h1>A long crossing</h1><p><em>Written 7 June 2024</em></p>${PARAS.map((p) => `<p>${p}</p>`).join('')}${FOOT}`,
  'posts/undated.html': `${HEAD('No date here', '<meta property="og:type" content="article">')}<h1>No date here</h1><p>${GIANT}</p><p>After the giant.</p>${FOOT}`,
};

const env: Record<string, string> = {};
let site: ServedSite;
beforeAll(async () => {
  site = await serveSite('small-site-test', ['/img/missing.jpg']);
  for (const [file, body] of Object.entries(FILES)) site.override(file, body);
  env.CRAWL_ALLOW_HOSTS = site.hostPort;
});
afterAll(() => site?.close());
const kit = toolKit({ env });

const sha = async (path: string) =>
  createHash('sha256')
    .update((await reencodeImage(await fixtureImage(path))).bytes)
    .digest('hex');

it('keeps the logo, links, the band, the table, post dates and a long post, and reports exactly', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.workspace, 'migrate_site_from_url', {
    websiteId: w.websites.main,
    url: `${site.base}/`,
  });
  expect(r.error).toBeUndefined();
  const id = r.data!.websiteId as string;
  const rows = await kit.db.select().from(pages).where(eq(pages.websiteId, id));
  const secs = await kit.db.select().from(sections).where(eq(sections.websiteId, id));
  const of = (slug: string) => {
    const p = rows.find((x) => x.slug === slug)!;
    expect(p, slug).toBeDefined();
    return secs.filter((s) => s.pageId === p.id).sort((a, b) => a.position - b.position);
  };
  const text = (slug: string) => JSON.stringify(of(slug).map((s) => s.content));

  // The header logo is the brand's logo, with the picture's own bytes; it is no picture on a page.
  const [brand] = await kit.db.select().from(brands).where(eq(brands.websiteId, id));
  const [logo] = await kit.db
    .select()
    .from(assets)
    .where(and(eq(assets.websiteId, id), eq(assets.id, brand!.logoAssetId!)));
  expect(logo!.sha256).toBe(await sha('/img/logo.png'));
  expect(text('home')).not.toContain(brand!.logoAssetId!);

  // mailto:/tel: links, the table with its row's link, and the band as a call to action.
  expect(text('home')).toContain('[01632 960111](tel:+441632960111)');
  expect(text('home')).toContain('[yard@small.example](mailto:yard@small.example)');
  expect(text('home')).toContain('| Antifouling | £240 | [Book](/contact) |');
  expect(text('home')).toContain('| --- | --- | --- |');
  const band = of('home').find((s) => s.type === 'cta');
  expect(band?.content).toEqual({
    heading: 'Hull needs a look?',
    body: 'We answer the same day.',
    buttonLabel: 'Ask for a visit',
    buttonUrl: '/contact',
  });

  // Post dates as the old site shows them; the post with none is named in the report.
  const dated = (slug: string) => rows.find((p) => p.slug === slug)!.createdAt.toISOString();
  expect(dated('blog/timed')).toBe('2024-05-06T12:00:00.000Z'); // the day, read as noon UTC
  expect(dated('blog/long')).toBe('2024-06-07T12:00:00.000Z');
  expect(rows.find((p) => p.slug === 'blog/undated')!.kind).toBe('post');
  const actions = r.data!.actionsRequired as string[];
  expect(actions.find((a) => / shows? no date/.test(a))).toContain('/blog/undated');

  // The long post is whole, in order, across more than one body section.
  const long = of('blog/long');
  const bodies = long
    .filter((s) => s.type === 'blog_body')
    .map((s) => String((s.content as { body: string }).body));
  expect(bodies.length).toBeGreaterThan(1);
  const joined = bodies.join('\n\n');
  let at = -1;
  for (const p of PARAS) {
    const next = joined.indexOf(p);
    expect(next, p.slice(0, 20)).toBeGreaterThan(at);
    at = next;
  }
  // The paragraph no section can hold is cut, and the report says which one.
  expect(actions.find((a) => a.includes('was shortened'))).toContain('/posts/undated.html');
  expect(text('blog/undated')).toContain('After the giant.');

  // Exactly the picture that did not come along, with the reason it did not.
  expect(r.data!.assetsSkipped).toBe(1);
  expect(r.data!.skippedAssets).toEqual([
    { url: `${site.base}/img/missing.jpg`, reason: 'The server answered 404.' },
  ]);
});
