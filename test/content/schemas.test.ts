// The section schemas: what an owner may write, and what can never enter.
import { describe, expect, it } from 'vitest';
import {
  SECTION_TYPES,
  TEXT_FIELDS,
  isSafeUrl,
  parseSectionContent,
} from '../../src/domain/sections/types.js';

describe('section schemas', () => {
  it('accept ordinary small-business text, Markdown and safe links', () => {
    for (const body of [
      'Our data: 5 loaves a minute.',
      'I <3 bread; 2 < 3 and 5 > 4.',
      'See [the menu](/menu), [maps](https://maps.example.com/?q=a&b=c) or [top](#top).',
      'Line one\nLine two\n\n## Heading\n- item',
    ]) {
      expect(parseSectionContent('text', { body }).ok, body).toBe(true);
    }
  });

  it('refuse markup, script-capable schemes in links or text, unknown keys and other types', () => {
    const bad: Array<[string, unknown]> = [
      ['text', { body: '<em>x</em>' }],
      ['text', { body: 'x <!-- y -->' }],
      ['text', { body: '[x](javascript:void(0))' }],
      ['text', { body: '[x](//evil.example)' }],
      ['text', { body: 'data:text/html,<b>' }],
      ['text', { body: 'vbscript:msgbox' }],
      ['text', { body: 'ok', html: '<b>x</b>' }],
      ['hero', { body: 'a text section' }],
      ['image', { url: 'data:image/png;base64,AAAA', alt: 'x' }],
      ['image', { url: 'file:///etc/passwd', alt: 'x' }],
      ['gallery', { images: Array.from({ length: 49 }, () => ({ url: '/a.png', alt: 'a' })) }],
      ['script', { body: 'x' }],
    ];
    for (const [type, content] of bad) {
      expect(parseSectionContent(type, content).ok, JSON.stringify(content).slice(0, 60)).toBe(false);
    }
  });

  it('URLs: https, http, site paths, anchors and asset ids only', () => {
    for (const u of ['https://a.example/x', 'http://a.example', '/about', '#top', 'asset_0123456789abcdef']) {
      expect(isSafeUrl(u), u).toBe(true);
    }
    for (const u of [
      'javascript:alert(1)',
      ' https://a.example',
      'mailto:a@b.c',
      '//a.example',
      '/\\evil',
      'ftp://x',
    ]) {
      expect(isSafeUrl(u), u).toBe(false);
    }
  });

  it('every type has text fields that exist in its schema', () => {
    for (const t of SECTION_TYPES) expect(TEXT_FIELDS[t].length).toBeGreaterThan(0);
  });
});
