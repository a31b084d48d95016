// The Markdown subset renders as an owner expects (CommonMark, through markdown-it), and everything
// else stays text: raw HTML, unsafe link targets and images from outside the site's library.
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { parseSectionContent } from '../../src/domain/sections/types.js';
import { escapeHtml } from '../../src/kernel/html.js';
import { inline, makeResolver, markdown } from '../../src/web/render/markdown.js';
import { renderSection } from '../../src/web/render/sections.js';

const r = makeResolver('/sites/site_1');
const ASSET = 'asset_0123456789ABCDEF';

describe('markdown subset', () => {
  it('renders the everyday Markdown an agent writes without blank lines between blocks', () => {
    expect(markdown('## When\n- Weekdays\n- Saturdays', r)).toBe(
      '<h2>When</h2>\n<ul>\n<li>Weekdays</li>\n<li>Saturdays</li>\n</ul>',
    );
    expect(markdown('Opening times:\n- Weekdays\n- Saturdays', r)).toBe(
      '<p>Opening times:</p>\n<ul>\n<li>Weekdays</li>\n<li>Saturdays</li>\n</ul>',
    );
    expect(markdown('## When\n\n- Weekdays\n- Saturdays', r)).toBe(
      '<h2>When</h2>\n<ul>\n<li>Weekdays</li>\n<li>Saturdays</li>\n</ul>',
    );
    expect(markdown('__bold__ and **bold**, _it_ and *it*', r)).toBe(
      '<p><strong>bold</strong> and <strong>bold</strong>, <em>it</em> and <em>it</em></p>',
    );
    // A blog body as the live page shows it: proper elements, no literal Markdown left.
    const html = renderSection(
      {
        id: 's',
        type: 'blog_body',
        content: { body: '## When\n- Weekdays\n- **Saturdays**' },
        layout: {},
        hidden: false,
      },
      r,
      false,
    );
    const $ = cheerio.load(html);
    expect($('article h2').text()).toBe('When');
    expect($('article ul > li').length).toBe(2);
    expect($('article li strong').text()).toBe('Saturdays');
    expect($('article').text()).not.toMatch(/##|^- /m);
  });

  it('formats bold, italic, links, headings, lists and line breaks', () => {
    expect(inline('**a** *b* _c_ [d](/about) [e](https://x.example/?a=1&b=2)', r)).toBe(
      '<strong>a</strong> <em>b</em> <em>c</em> <a href="/sites/site_1/about">d</a> <a href="https://x.example/?a=1&amp;b=2">e</a>',
    );
    expect(markdown('# Big\n\n### Small\n\n###### Tiny\n\nline 1\nline 2', r)).toBe(
      '<h2>Big</h2>\n<h3>Small</h3>\n<h4>Tiny</h4>\n<p>line 1<br>\nline 2</p>',
    );
    expect(inline(`[pic](${ASSET})`, r)).toBe(`<a href="/assets/${ASSET}">pic</a>`);
    expect(inline('[write](mailto:hello@bakery.example) [call](tel:+441234567890)', r)).toBe(
      '<a href="mailto:hello@bakery.example">write</a> <a href="tel:+441234567890">call</a>',
    );
  });

  it('keeps snake_case words and lone symbols as text', () => {
    expect(inline('use snake_case_names and 2 * 3 * 4', r)).toBe('use snake_case_names and 2 * 3 * 4');
    expect(inline('a < b & c > "d"', r)).toBe('a &lt; b &amp; c &gt; &quot;d&quot;');
  });

  it('never renders raw HTML, an unsafe link or an image from outside the library', () => {
    expect(markdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>', r)).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(inline('[x](javascript:alert(1))', r)).toBe('[x](javascript:alert(1))');
    expect(inline('[x](JaVaScRiPt:alert(1)) [y](data:text/html,x) [z](vbscript:x)', r)).not.toContain('<a');
    expect(inline('[x](//evil.example) [y](ftp://x.example/a)', r)).not.toContain('<a');
    expect(inline('[<b>x</b>](/a)', r)).toBe('<a href="/sites/site_1/a">&lt;b&gt;x&lt;/b&gt;</a>');
    expect(inline('[x](/a"onmouseover="y)', r)).not.toContain('onmouseover="');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
    expect(inline('[a_b_c](https://x.example/a_b_c)', r)).toBe('<a href="https://x.example/a_b_c">a_b_c</a>');
    // Images: the site's library only; any other source reads as the image's description.
    expect(inline(`![A loaf](${ASSET})`, r)).toBe(`<img src="/assets/${ASSET}" alt="A loaf" loading="lazy">`);
    expect(inline('![A loaf](https://tracker.example/pixel.png)', r)).toBe('A loaf');
    expect(inline('![A loaf](/uploads/a.png)', r)).toBe('A loaf');
    // Switched off: code blocks, reference links, bare-URL autolinks.
    expect(markdown('    indented\n\n```\nfenced\n```', r)).not.toContain('<pre');
    expect(markdown('[a][1]\n\n[1]: https://x.example', r)).not.toContain('<a');
    expect(inline('see https://x.example', r)).toBe('see https://x.example');
  });

  it('refuses raw HTML, unsafe links and foreign images when the text is written', () => {
    const bad = [
      '<b>x</b>',
      'a <script>',
      '[x](javascript:alert(1))',
      '[x](//evil.example)',
      '![x](https://tracker.example/pixel.png)',
      '![x](/uploads/a.png)',
    ];
    for (const body of bad) expect(parseSectionContent('text', { body }).ok, body).toBe(false);
    const good = [
      '## When\n- Weekdays',
      '[mail](mailto:a@b.example) [call](tel:+4412345)',
      `![A loaf](${ASSET})`,
      '__bold__',
    ];
    for (const body of good) expect(parseSectionContent('text', { body }).ok, body).toBe(true);
  });
});
