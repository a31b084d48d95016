// The converter's reading of dates, tables and code (src/migrate/dates.ts, rich-blocks.ts, dom.ts):
// dates as pages print them become ISO days and impossible ones none; a data table becomes a Markdown
// table (header row, escaped pipes, spans kept as columns) while a one-column layout table does not;
// a <pre> becomes a fenced block with its language and its indentation, tag-like text neutralised.
import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { dateInPath, dateInText, dateOfAttribute } from '../../src/migrate/dates.js';
import { blockMd, lineOf, safeMarkdown } from '../../src/migrate/dom.js';
import { tableMd } from '../../src/migrate/rich-blocks.js';

const link = (h: string) => (h.startsWith('/') ? h : null);

describe('dates', () => {
  it('reads the forms pages print, and nothing that is no real day', () => {
    expect(dateInText('Posted by Mara on March 3, 2026')).toBe('2026-03-03');
    expect(dateInText('14th March 2026, 9:30')).toBe('2026-03-14');
    expect(dateInText('(2 January 2025)')).toBe('2025-01-02');
    expect(dateInText('2026-02-30')).toBeNull();
    expect(dateInText('June 2024')).toBeNull();
    expect(dateOfAttribute('2024-05-06T08:30:00Z')).toBe('2024-05-06');
    expect(dateOfAttribute('yesterday')).toBeNull();
    expect(dateInPath('/2025/06/14/a-tiny-static-search.html')).toBe('2025-06-14');
    expect(dateInPath('/posts/2025/03/ferry/')).toBeNull(); // a month is not a day
  });
});

describe('tables and code', () => {
  it('a data table becomes a Markdown table; a layout table does not', () => {
    const $ = cheerio.load(
      '<table id="t"><tr><th>Plan</th><th colspan="2">Price</th></tr><tr><td>A | B</td><td>£1</td><td><a href="/buy">Buy</a></td></tr></table><table id="l"><tr><td>Only one column</td></tr></table>',
    );
    const line = (el: Element) => lineOf($, el, link);
    expect(tableMd($, $('#t')[0] as Element, line)).toBe(
      '| Plan | Price |   |\n| --- | --- | --- |\n| A \\| B | £1 | [Buy](/buy) |',
    );
    expect(tableMd($, $('#l')[0] as Element, line)).toBeNull();
  });

  it('a <pre> becomes a fenced block that keeps its indentation and neutralises tag-like text', () => {
    const $ = cheerio.load(
      '<div class="highlight-python"><pre>def f(a):\n    if a &lt;b:\n        return "&lt;script&gt;"</pre></div>',
    );
    const md = blockMd($, $('pre')[0] as Element, link);
    expect(md).toBe('```python\ndef f(a):\n    if a <b:\n        return "<script>"\n```');
    // Made safe for a section, the code keeps its spaces and no line holds a tag.
    expect(safeMarkdown(`Intro\n\n${md}\n\nAfter   text`, 20_000)).toBe(
      'Intro\n\n```python\ndef f(a):\n    if a ‹b:\n        return "‹script>"\n```\n\nAfter text',
    );
  });
});
