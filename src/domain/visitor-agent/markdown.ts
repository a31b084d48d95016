// A published page as Markdown for a visitor's assistant, and a plain search over the live pages.
// Section text is already plain text or the site's small Markdown subset (src/domain/sections/types.ts);
// here it is only laid out, and site-relative links and library images become absolute addresses.
import { ASSET_ID } from '../sections/types.js';
import type { SnapshotPage } from '../sites/draft.js';
import { type SiteView, pageAt } from '../sites/view.js';
import type { PublicService } from './site.js';

/** Where the live site is: its root (`https://example.com` or `<base>/sites/<id>`) and the service's origin. */
export type SiteAddress = { siteUrl: string; assetOrigin: string };

function absolute(url: string, at: SiteAddress): string {
  if (ASSET_ID.test(url)) return `${at.assetOrigin}/assets/${url}`;
  if (url.startsWith('/') && !url.startsWith('//')) return `${at.siteUrl}${url}`;
  return url;
}

/** A fenced code block (``` or ~~~) from its opening line to its closing one, or to the end. */
const FENCED = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;

/**
 * Rewrites the targets of Markdown links and images in section text to absolute addresses; a fenced
 * code block is shown as written (what looks like a link there is code). Tables and code blocks stay
 * Markdown, as the site's subset has them.
 */
function links(text: string, at: SiteAddress): string {
  const rewrite = (s: string) =>
    s.replace(/(!?\[[^\]\n]{0,500}\])\(([^)\s]{1,2000})\)/g, (_m, label: string, target: string) => {
      return `${label}(${absolute(target, at)})`;
    });
  let out = '';
  let from = 0;
  for (const m of text.matchAll(FENCED)) {
    out += rewrite(text.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + rewrite(text.slice(from));
}

// Section content was validated against its type's schema when it was written; it is read loosely here.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Content = Record<string, any>;

function section(type: string, c: Content, at: SiteAddress): string[] {
  const t = (s: unknown) => (typeof s === 'string' && s ? links(s, at) : '');
  const h = (level: number, s: unknown) => (t(s) ? [`${'#'.repeat(level)} ${t(s)}`] : []);
  const p = (s: unknown) => (t(s) ? [t(s)] : []);
  const button = (label: unknown, url: unknown) =>
    typeof label === 'string' && typeof url === 'string' ? [`[${label}](${absolute(url, at)})`] : [];
  const image = (url: unknown, alt: unknown) =>
    typeof url === 'string' ? [`![${typeof alt === 'string' ? alt : ''}](${absolute(url, at)})`] : [];
  const list = (v: unknown): Content[] => (Array.isArray(v) ? v : []);
  switch (type) {
    case 'hero':
      return [...h(1, c.heading), ...p(c.subheading), ...button(c.buttonLabel, c.buttonUrl)];
    case 'text':
    case 'blog_body':
      return [...h(2, c.heading), ...p(c.body)];
    case 'image':
      return [...image(c.url, c.alt), ...p(c.caption)];
    case 'gallery':
      return [...h(2, c.heading), ...list(c.images).flatMap((i) => image(i.url, i.alt))];
    case 'features':
      return [
        ...h(2, c.heading),
        ...list(c.items).flatMap((i) => [
          ...(typeof i.url === 'string' ? [`### [${t(i.title)}](${absolute(i.url, at)})`] : h(3, i.title)),
          ...p(i.body),
        ]),
      ];
    case 'testimonials':
      return [...h(2, c.heading), ...list(c.items).map((i) => `> ${t(i.quote)}\n> — ${t(i.author)}`)];
    case 'pricing':
      return [
        ...h(2, c.heading),
        ...list(c.plans).flatMap((pl) => [
          `### ${t(pl.name)}: ${t(pl.price)}`,
          ...(list(pl.features).length
            ? [
                list(pl.features)
                  .map((f) => `- ${t(f)}`)
                  .join('\n'),
              ]
            : []),
          ...button(pl.buttonLabel, pl.buttonUrl),
        ]),
      ];
    case 'faq':
      return [...h(2, c.heading), ...list(c.items).flatMap((i) => [...h(3, i.question), ...p(i.answer)])];
    case 'cta':
      return [...h(2, c.heading), ...p(c.body), ...button(c.buttonLabel, c.buttonUrl)];
    case 'contact':
      return [
        ...h(2, c.heading),
        ...p(c.body),
        ...(c.email ? [`Email: ${c.email}`] : []),
        ...(c.phone ? [`Phone: ${t(c.phone)}`] : []),
        ...(c.address ? [`Address: ${t(c.address)}`] : []),
      ];
    default:
      return [];
  }
}

/** One live page as Markdown: its title, then each visible section in order. */
export function pageMarkdown(page: SnapshotPage, at: SiteAddress): string {
  const blocks = [`# ${page.title}`];
  for (const s of page.sections) {
    if (!s.hidden) blocks.push(...section(s.type, (s.content ?? {}) as Content, at));
  }
  return `${blocks.join('\n\n')}\n`;
}

/** The live page at a visitor's path (`/`, `/about`, `about`), or null. */
export function livePage(view: SiteView, path: string): SnapshotPage | null {
  return pageAt(view, path.trim());
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

type Searchable = { text: string; lower: string; found: string[] };
const searchText = (text: string): Searchable => ({ text, lower: text.toLowerCase(), found: words(text) });

/**
 * A page's text and words as search reads them, kept with the page object: the live site's pages are
 * one shared copy per published snapshot (src/domain/sites/view.ts), so a search renders each page once
 * per snapshot and address, not once per call.
 */
const searched = new WeakMap<SnapshotPage, { at: string; doc: Searchable }>();
function searchable(page: SnapshotPage, at: SiteAddress): Searchable {
  const key = `${at.siteUrl}\n${at.assetOrigin}`;
  const known = searched.get(page);
  if (known?.at === key) return known.doc;
  const doc = searchText(pageMarkdown(page, at));
  searched.set(page, { at: key, doc });
  return doc;
}

/**
 * The live pages, and the pages of bookable public services, that contain every word of the query
 * (case-insensitive), best first by how often they occur, each with a snippet around the first hit.
 * At most `limit` results. A public service without a duration has no page: list_offerings lists it.
 */
export function searchPages(
  view: SiteView,
  query: string,
  at: SiteAddress,
  services: readonly PublicService[] = [],
  limit = 10,
) {
  const terms = [...new Set(words(query))].slice(0, 12);
  if (!terms.length) return [];
  const home = pageAt(view, '');
  const docs = [
    ...view.pages.map((page) => ({
      path: page === home ? '/' : `/${page.slug}`,
      title: page.title,
      ...searchable(page, at),
    })),
    ...services
      .filter((s) => s.bookable)
      .map((s) => ({
        path: `/book/${s.serviceId}`,
        title: s.name,
        ...searchText(
          [`# ${s.name}`, s.description, `${s.durationMinutes} minutes`, s.price ?? ''].join('\n\n'),
        ),
      })),
  ];
  const hits: Array<{ path: string; title: string; snippet: string; score: number }> = [];
  for (const doc of docs) {
    const { text, lower, found } = doc;
    const score = terms.reduce((n, term) => n + found.filter((w) => w.startsWith(term)).length, 0);
    if (!terms.every((term) => found.some((w) => w.startsWith(term)))) continue;
    const first = Math.max(0, lower.indexOf(terms[0]!));
    const from = Math.max(0, first - 80);
    const snippet = `${from > 0 ? '…' : ''}${text
      .slice(from, first + 160)
      .replace(/\s+/g, ' ')
      .trim()}…`;
    hits.push({ path: doc.path, title: doc.title, snippet, score });
  }
  return hits
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ score: _, ...h }) => h);
}
