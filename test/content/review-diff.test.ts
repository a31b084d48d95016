// The approval page's side-by-side diff of a Markdown field (src/web/render/review-diff.ts) over a
// table and a fenced code block: the changed words are marked inside the rendered table cell and the
// code block, the code stays escaped, and the unchanged ones are not marked.
import { describe, expect, it } from 'vitest';
import { makeResolver } from '../../src/web/render/markdown.js';
import { renderedDiff } from '../../src/web/render/review-diff.js';

const r = makeResolver('/sites/site_1');

describe('approval diff of rich text', () => {
  it('marks a changed table cell and a changed line of code, nothing else', () => {
    const before = '| Day | Opens |\n|---|---|\n| Mon | 7:00 |\n\n```\nif (a < b) open();\n```';
    const after = '| Day | Opens |\n|---|---|\n| Mon | 8:00 |\n\n```\nif (a < c) open();\n```';
    const d = renderedDiff(before, after, 'markdown', r);
    expect(d.before).toContain('<td><del>7:00</del></td>');
    expect(d.after).toContain('<td><ins>8:00</ins></td>');
    expect(d.after).toContain('<pre><code>if (a &lt; <ins>c)</ins> open();\n</code></pre>');
    expect(d.before).toContain('<pre><code>if (a &lt; <del>b)</del> open();\n</code></pre>');
    expect(d.after).toContain('<th>Day</th>');
    expect(d.after).not.toContain('<ins>Day');
  });
});
