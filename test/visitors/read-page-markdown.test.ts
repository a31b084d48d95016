// read_page's Markdown (src/domain/visitor-agent/markdown.ts): a table and a fenced code block reach a
// visitor's assistant as the Markdown the site renders them from; links in text and table cells become
// absolute addresses, while what looks like a link inside a code block is code and stays as written.
import { describe, expect, it } from 'vitest';
import { pageMarkdown } from '../../src/domain/visitor-agent/markdown.js';

const at = { siteUrl: 'https://bakery.example', assetOrigin: 'https://app.example' };

describe('read_page Markdown of rich text', () => {
  it('keeps tables and fenced code, and rewrites links only outside the code', () => {
    const body = [
      'Our hours:',
      '',
      '| Day | Opens |',
      '|---|---|',
      '| Mon | [7:00](/hours) |',
      '',
      '```sh',
      'curl [not a link](/api)',
      '```',
      '',
      'See [the menu](/menu).',
    ].join('\n');
    const md = pageMarkdown(
      {
        id: 'p',
        slug: 'hours',
        title: 'Hours',
        kind: 'page',
        seoTitle: null,
        seoDescription: null,
        sections: [{ id: 's', type: 'text', content: { heading: 'When', body }, layout: {}, hidden: false }],
      },
      at,
    );
    expect(md).toContain('| Mon | [7:00](https://bakery.example/hours) |');
    expect(md).toContain('```sh\ncurl [not a link](/api)\n```');
    expect(md).toContain('See [the menu](https://bakery.example/menu).');
    expect(md).toContain('|---|---|');
  });
});
