// What migrated text needs from the Markdown subset ("a blockquote came out as a literal
// '> …'"): "> " lines are a quote, "1. " lines a numbered list, a feature card shows its picture; all
// still escaped first, so a quote or list item cannot smuggle markup.
import { describe, expect, it } from 'vitest';
import { markdown } from '../../src/web/render/markdown.js';
import { renderSection } from '../../src/web/render/sections.js';
import { makeResolver } from '../../src/web/render/markdown.js';

const r = makeResolver('/sites/site_1');

describe('quotes, numbered lists and feature pictures', () => {
  it('renders "> " lines as a blockquote and "1. " lines as an ordered list', () => {
    expect(markdown('> A harbour with its lights out\n> has given up.', r)).toBe(
      '<blockquote>\n<p>A harbour with its lights out<br>\nhas given up.</p>\n</blockquote>',
    );
    expect(markdown('1. The bowline\n2. The [clove hitch](/knots)', r)).toBe(
      '<ol>\n<li>The bowline</li>\n<li>The <a href="/sites/site_1/knots">clove hitch</a></li>\n</ol>',
    );
    // A line after a list item continues it (CommonMark laziness); markup inside a quote stays text.
    expect(markdown('1. one\nnot a list', r)).toBe('<ol>\n<li>one<br>\nnot a list</li>\n</ol>');
    expect(markdown('> <img src=x onerror=alert(1)>', r)).toBe(
      '<blockquote>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>\n</blockquote>',
    );
  });

  it('shows a feature item’s picture above its title, and drops an unsafe one', () => {
    const html = (imageUrl: string) =>
      renderSection(
        {
          id: 's1',
          type: 'features',
          content: { items: [{ title: 'Priya', body: 'Lead Designer', imageUrl }] },
          layout: {},
          hidden: false,
        },
        r,
        false,
      );
    expect(html('asset_0123456789ABCDEF')).toContain(
      '<div class="card"><img src="/assets/asset_0123456789ABCDEF" alt="Priya" loading="lazy"><h3>Priya</h3>',
    );
    expect(html('javascript:alert(1)')).toContain('<div class="card"><h3>Priya</h3>');
  });
});
