// The CommonMark specification's own examples (from the commonmark-spec package, not copied here) for
// the subset sites support, run against the one renderer of the live site, the previews and the
// approval page. An example is left out only when it needs what the subset switches off or refuses:
// code blocks, raw HTML (and <…> autolinks, which the write-time check refuses as tag-like), link
// reference definitions, or a link target outside http(s), mailto:, tel: and the site's own paths
// (images: only library assets, so the spec's images are all out). Differences that are the subset's
// documented choices are normalised on both sides: a single line break is kept as <br>, # and
// ##### / ###### headings show as h2 and h4, HTML5 void tags, apostrophes escaped.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { outsideSubset } from '../../src/domain/sections/markdown-subset.js';
import { makeResolver, markdown } from '../../src/web/render/markdown.js';

type Example = { markdown: string; html: string; section: string; number: number };
const require = createRequire(import.meta.url);
const spec = require('commonmark-spec') as { tests: Example[] };

const OFF_SECTIONS = new Set([
  'Tabs',
  'Indented code blocks',
  'HTML blocks',
  'Link reference definitions',
  'Raw HTML',
  'Autolinks',
]);
const TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'em']);
for (const t of ['strong', 'a', 'code', 'br', 'hr', 'pre']) TAGS.add(t);
const resolve = makeResolver('');

// The spec text shows a tab as →.
const tabs = (s: string) => s.replace(/→/g, '\t');
const normalise = (html: string) =>
  html
    .replace(/ \/>/g, '>')
    .replace(/<(\/?)h([156])>/g, (_m, slash: string, level: string) => `<${slash}h${level === '1' ? 2 : 4}>`)
    .replace(/<br>\n/g, '\n')
    .replace(/&#39;/g, "'")
    .replace(/>\n</g, '><')
    .trimEnd();

function inSubset(e: Example): boolean {
  if (OFF_SECTIONS.has(e.section)) return false;
  // What the subset refuses when it is written (an indented code block inside another example).
  if (outsideSubset(tabs(e.markdown), 'markdown')) return false;
  if (/<[A-Za-z!?/]/.test(e.markdown)) return false;
  if (/^ {0,3}\[(?:[^\]\\]|\\.)+\]:/m.test(e.markdown)) return false;
  const tags = [...e.html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]!);
  if (tags.some((t) => !TAGS.has(t))) return false;
  const urls = [...e.html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  return urls.every((u) => resolve(u) !== null);
}

const examples = spec.tests.filter(inSubset);

describe('CommonMark specification examples in the supported subset', () => {
  it('covers the subset with enough examples', () => {
    const sections = new Set(examples.map((e) => e.section));
    for (const s of [
      'ATX headings',
      'Setext headings',
      'Paragraphs',
      'Block quotes',
      'List items',
      'Lists',
    ]) {
      expect(sections.has(s), s).toBe(true);
    }
    for (const s of [
      'Emphasis and strong emphasis',
      'Links',
      'Code spans',
      'Hard line breaks',
      'Fenced code blocks',
    ]) {
      expect(sections.has(s), s).toBe(true);
    }
    expect(examples.length).toBeGreaterThan(300);
  });

  it.each(examples.map((e) => [e.number, e.section, e] as const))('example %i (%s)', (_n, _s, e) => {
    expect(normalise(markdown(tabs(e.markdown), resolve))).toBe(normalise(tabs(e.html)));
  });
});
