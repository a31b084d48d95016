// Property: any content the section schemas accept renders to HTML with no script, no event
// handler attribute, no style attribute (a table column's alignment is a class), no unsafe URL and no markup other than the renderer's own tags.
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECTION_SCHEMAS, type SectionType } from '../../src/domain/sections/types.js';
import { makeResolver } from '../../src/web/render/markdown.js';
import { type RenderSite, renderPage } from '../../src/web/render/page.js';
import { renderSection } from '../../src/web/render/sections.js';

const FRAGMENTS = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '`',
  '*',
  '_',
  '**',
  '[',
  ']',
  '(',
  ')',
  '](',
  '\n',
  '\n\n',
  '- ',
  '## ',
  'javascript:',
  'JaVaScRiPt:',
  'data:',
  'vbscript:',
  'onerror=',
  'onclick="x"',
  'script',
  '<3',
  '< b',
  '&lt;',
  '&#60;script&#62;',
  '/',
  '#',
  '](/x)',
  '](https://e.example/?a=1&b="2")',
  '](asset_',
  '\u200b',
  '\u202e',
  '[a](javascript:alert(1))',
  '[b](/ok)',
  '[c](#top)',
  'style=',
  '{',
  '}',
  '\\',
  '\t',
  '__',
  '`',
  '    ',
  '![i](asset_0123456789ABCDEF)',
  '![i](https://e.example/p.png)',
  '[m](mailto:a@b.example)',
  '[t](tel:+4412345)',
  '[r][1]\n\n[1]: https://e.example',
  '1. ',
  '> ',
  '---',
  '| a | b |\n|---|:-:|\n| c | d |',
  '\n|--|\n',
  ' | ',
  '```',
  '```js\n',
  '\n```\n',
  '~~~',
  '~~',
];
const piece = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 }));
// Mostly short texts (so that enough of them pass the schemas), sometimes long hostile ones.
const text = fc.oneof(
  { arbitrary: fc.array(piece, { maxLength: 5 }).map((a) => a.join('')), weight: 3 },
  { arbitrary: fc.array(piece, { maxLength: 24 }).map((a) => a.join('')), weight: 1 },
);
const url = fc.oneof(
  fc.constantFrom(
    'https://a.example/x?y=1&z="2"',
    '/about',
    '#top',
    'http://b.example/"><script>alert(1)</script>',
    'javascript:alert(1)',
    'data:text/html,x',
    '//evil.example',
    'asset_0123456789abcdefABCD'.slice(0, 22),
    '/x" onmouseover="y',
  ),
  text,
);
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const items = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 4 });

const GEN: Record<SectionType, fc.Arbitrary<Record<string, unknown>>> = {
  hero: fc.record({
    heading: text,
    subheading: opt(text),
    buttonLabel: opt(text),
    buttonUrl: opt(url),
    imageUrl: opt(url),
  }),
  text: fc.record({ heading: opt(text), body: text }),
  image: fc.record({ url, alt: text, caption: opt(text) }),
  gallery: fc.record({ heading: opt(text), images: items(fc.record({ url, alt: text })) }),
  features: fc.record({
    heading: opt(text),
    items: items(fc.record({ title: text, body: text, imageUrl: opt(url), url: opt(url) })),
  }),
  testimonials: fc.record({
    heading: opt(text),
    items: items(fc.record({ quote: text, author: text, imageUrl: opt(url) })),
  }),
  pricing: fc.record({
    heading: opt(text),
    plans: items(
      fc.record({
        name: text,
        price: text,
        features: items(text),
        buttonLabel: opt(text),
        buttonUrl: opt(url),
      }),
    ),
  }),
  faq: fc.record({ heading: opt(text), items: items(fc.record({ question: text, answer: text })) }),
  cta: fc.record({ heading: text, body: opt(text), buttonLabel: text, buttonUrl: url }),
  contact: fc.record({
    heading: opt(text),
    body: opt(text),
    email: opt(fc.constantFrom('a@b.example', 'x"y@b.example', 'bad')),
    phone: opt(text),
    address: opt(text),
    showForm: fc.boolean(),
  }),
  blog_body: fc.record({ body: text }),
};

/** Drops undefined keys (what JSON over the wire would do). */
const clean = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>;

const TAGS = new Set([
  'section',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'p',
  'a',
  'img',
  'figure',
  'figcaption',
  'blockquote',
  'cite',
  'ul',
  'ol',
  'li',
  'details',
  'summary',
  'address',
  'article',
  'strong',
  'em',
  'br',
  'hr',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ATTRS = new Set(['id', 'class', 'href', 'src', 'alt', 'loading', 'title', 'start']);

function assertSafe(html: string) {
  // Every "<" opens one of the renderer's own tags; anything else would be unescaped markup.
  for (const m of html.matchAll(/<\/?([^\s>/]*)/g)) expect(TAGS.has(m[1]!.toLowerCase()), m[0]).toBe(true);
  const $ = cheerio.load(html, null, false);
  $('*').each((_i, el) => {
    const tag = (el as { tagName: string }).tagName.toLowerCase();
    expect(TAGS.has(tag), tag).toBe(true);
    for (const [name, value] of Object.entries((el as { attribs: Record<string, string> }).attribs)) {
      expect(ATTRS.has(name), `attribute ${name}`).toBe(true);
      if (name === 'href' || name === 'src') {
        expect(value).toMatch(/^(https?:\/\/|\/(?!\/)|#|mailto:|tel:)/i);
      }
    }
  });
}

describe('rendering accepted content', () => {
  for (const type of Object.keys(GEN) as SectionType[]) {
    it(`${type}: no script, handler, style or foreign markup`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(GEN[type], fc.boolean(), (raw, hidden) => {
          const content = clean(raw);
          const parsed = SECTION_SCHEMAS[type].safeParse(content);
          if (!parsed.success) return;
          accepted++;
          const html = renderSection(
            { id: 'sec_1', type, content: parsed.data, layout: { width: 'wide' }, hidden },
            makeResolver('/sites/site_1'),
            true,
          );
          assertSafe(html);
          // Escaped, not dropped: a heading reads back exactly as written.
          if (type === 'hero')
            expect(cheerio.load(html)('h1').text()).toBe(
              String((parsed.data as { heading?: string }).heading),
            );
        }),
        { numRuns: 600 },
      );
      expect(accepted).toBeGreaterThan(20);
    });
  }

  it('a whole page with hostile titles, names and brand values has no script and no injected style', () => {
    const site: RenderSite = {
      siteName: '</title><script>alert(1)</script>',
      basePath: '/sites/site_1',
      mode: 'live',
      nav: [{ slug: 'a"b', title: '<img src=x onerror=alert(1)>' }],
      hasPosts: true,
      brand: {
        palette: { primary: 'red;}body{display:none', accent: '#123456' },
        fonts: { heading: 'x"}</style><script>' },
      },
    };
    const html = renderPage(site, {
      id: 'page_1',
      slug: 'home',
      title: '<b>t</b>',
      kind: 'post',
      seoTitle: null,
      seoDescription: '"><script>alert(1)</script>',
      sections: [{ id: 's', type: 'text', content: { body: 'hi' }, layout: {}, hidden: false }],
    });
    const $ = cheerio.load(html);
    expect($('script').length).toBe(0);
    expect($('style').length).toBe(1);
    expect($('style').text()).not.toContain('body{display:none');
    expect($('style').text()).not.toContain('<script');
    expect($('style').text()).toContain('--accent:#123456');
    expect($('title').text()).toBe('<b>t</b> · </title><script>alert(1)</script>');
    expect(html).not.toMatch(/<script/i);
  });
});
