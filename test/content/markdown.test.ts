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
    // Switched off: indented code blocks, reference links, bare-URL autolinks (the first two are
    // refused when written; see below).
    expect(markdown('    indented', r)).toBe('<p>indented</p>');
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

  it('renders a table with its alignment (a class) and inline Markdown, inside a box that scrolls sideways', () => {
    const table =
      '| Day | Opens | Notes |\n|:--|--:|---|\n| Mon | 7:00 | [menu](/menu) **fresh** |\n| Tue | 8:00 | <b>x</b> & `y` |';
    expect(markdown(table, r)).toBe(
      [
        '<div class="table-scroll"><table>',
        '<thead>',
        '<tr>',
        '<th class="al-left">Day</th>',
        '<th class="al-right">Opens</th>',
        '<th>Notes</th>',
        '</tr>',
        '</thead>',
        '<tbody>',
        '<tr>',
        '<td class="al-left">Mon</td>',
        '<td class="al-right">7:00</td>',
        '<td><a href="/sites/site_1/menu">menu</a> <strong>fresh</strong></td>',
        '</tr>',
        '<tr>',
        '<td class="al-left">Tue</td>',
        '<td class="al-right">8:00</td>',
        '<td>&lt;b&gt;x&lt;/b&gt; &amp; <code>y</code></td>',
        '</tr>',
        '</tbody>',
        '</table></div>',
      ].join('\n'),
    );
    // An unsafe link in a cell stays text, as anywhere else.
    expect(markdown('| a |\n|---|\n| [x](javascript:alert(1)) |', r)).not.toContain('<a');
  });

  it('renders a fenced code block escaped, its language word escaped in its class', () => {
    expect(markdown('```js\nif (a < b) alert("x");\n  indented();\n```', r)).toBe(
      '<pre><code class="language-js">if (a &lt; b) alert(&quot;x&quot;);\n  indented();\n</code></pre>',
    );
    expect(markdown('```"><script>\nx\n```', r)).toBe(
      '<pre><code class="language-&quot;&gt;&lt;script&gt;">x\n</code></pre>',
    );
    expect(markdown('~~~\n[not a link](/a) **not bold**\n~~~', r)).toBe(
      '<pre><code>[not a link](/a) **not bold**\n</code></pre>',
    );
  });

  it('refuses what is outside the subset, naming it, and accepts tables and fenced code', () => {
    const refused: Array<[string, RegExp]> = [
      ['intro\n\n    indented code', /indented code block/],
      ['[a][1]\n\n[1]: https://x.example', /reference-style link/],
      ['~~gone~~', /strikethrough/],
    ];
    for (const [body, named] of refused) {
      const res = parseSectionContent('text', { body });
      expect(res.ok, body).toBe(false);
      expect(!res.ok && res.message).toMatch(named);
      expect(!res.ok && res.message).toMatch(/^text\.body: /);
    }
    // A list of items is checked item by item; a one-line field holds no table or code block.
    const faq = parseSectionContent('faq', {
      items: [
        { question: 'a', answer: 'fine' },
        { question: 'b', answer: '[x][y]\n\n[y]: /z' },
      ],
    });
    expect(!faq.ok && faq.message).toMatch(/^faq\.items\.answer: a reference-style link/);
    const caption = parseSectionContent('image', {
      url: ASSET,
      alt: 'x',
      caption: '```\ncode\n```',
    });
    expect(!caption.ok && caption.message).toMatch(/^image\.caption: a fenced code block/);
    for (const body of [
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '```ts\nconst a = 1;\n```',
      'a | b without a table',
    ])
      expect(parseSectionContent('text', { body }).ok, body).toBe(true);
  });
});
