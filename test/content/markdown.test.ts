// The Markdown subset renders as an owner expects, and everything else stays text.
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/kernel/html.js';
import { inline, makeResolver, markdown } from '../../src/web/render/markdown.js';

const r = makeResolver('/sites/site_1');

describe('markdown subset', () => {
  it('formats bold, italic, links, headings, lists and line breaks', () => {
    expect(inline('**a** *b* _c_ [d](/about) [e](https://x.example/?a=1&b=2)', r)).toBe(
      '<strong>a</strong> <em>b</em> <em>c</em> <a href="/sites/site_1/about">d</a> <a href="https://x.example/?a=1&amp;b=2">e</a>',
    );
    expect(markdown('## Title\n\n- one\n- two\n\nline 1\nline 2', r)).toBe(
      '<h3>Title</h3>\n<ul><li>one</li><li>two</li></ul>\n<p>line 1<br>line 2</p>',
    );
    expect(inline('[pic](asset_0123456789ABCDEF)', r)).toBe(
      '<a href="/assets/asset_0123456789ABCDEF">pic</a>',
    );
  });

  it('keeps snake_case words and lone symbols as text', () => {
    expect(inline('use snake_case_names and 2 * 3 * 4', r)).toBe('use snake_case_names and 2 * 3 * 4');
    expect(inline('a < b & c > "d"', r)).toBe('a &lt; b &amp; c &gt; &quot;d&quot;');
  });

  it('never links an unsafe target and never lets markup through', () => {
    expect(inline('[x](javascript:alert(1))', r)).toBe('x)');
    expect(inline('[x](//evil.example)', r)).toBe('x');
    expect(inline('[<b>x</b>](/a)', r)).toBe('<a href="/sites/site_1/a">&lt;b&gt;x&lt;/b&gt;</a>');
    expect(inline('[x](/a"onmouseover="y)', r)).toBe('x');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
    expect(inline('[a_b_c](https://x.example/a_b_c)', r)).toBe('<a href="https://x.example/a_b_c">a_b_c</a>');
  });
});
