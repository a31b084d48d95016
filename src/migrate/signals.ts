// What site planning needs from each page (R-MIG-3), read once while the crawler has the page parsed,
// so no two documents are held as DOM trees at the same time: the navigation's labels, links that
// preview blog posts, whether the page reads as a post, the brand in its header, its stylesheets.
import type { CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import { DATE, safeText, textOf } from './dom.js';

export type PageSignals = {
  /** Navigation links (absolute, no fragment) with their labels, in document order. */
  nav: Array<{ href: string; label: string }>;
  /** Links that preview a post: a blog index's post previews, or its articles' heading links. */
  previews: string[];
  /** Dated cards with a title or "Read more" link, dead links ("#!") included: a template's blog index. */
  previewCards: number;
  looksLikePost: boolean;
  brand: { name: string | null; logo: string | null };
  /** `<link rel=stylesheet>` addresses and inline `<style>` text, in document order. */
  sheets: Array<{ href: string } | { inline: string }>;
};

const NAV_LINKS = 'nav a[href], .navbar a[href], [role="navigation"] a[href]';
const PREVIEW_LINKS =
  '[class*="post-preview"] a[href], [class*="post-card"] a[href], article[class*="post"] a[href], [class*="post-title"] a[href], a[href]:has([class*="post-title"])';

function absolute(href: string, base: URL, keepHash = false): string | null {
  try {
    const u = new URL(href.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (!keepHash) u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

export function readSignals($: CheerioAPI, url: URL): PageSignals {
  const nav: PageSignals['nav'] = [];
  $(NAV_LINKS).each((_, a) => {
    const raw = $(a).attr('href') ?? '';
    // An anchor names a place on a page, not the page; the brand link is the site's name.
    if (raw.includes('#') || $(a).is('.navbar-brand, .navbar-brand *') || $(a).closest('footer').length)
      return;
    const href = absolute(raw, url);
    const label = safeText(textOf($, a), 200);
    if (href && label) nav.push({ href, label });
  });
  const articles = $('article');
  const listed =
    articles.length > 1
      ? articles
          .toArray()
          .map((art) => $(art).find('h1 a[href], h2 a[href], h3 a[href], a[href]:has(h2, h3)')[0])
      : [];
  const previews = [...$(PREVIEW_LINKS).toArray(), ...listed, ...cardPreviews($)]
    .map((a) => (a ? ($(a).attr('href') ?? '').trim() : ''))
    // "#!" placeholders and links to this same page name no post.
    .map((href) => (href && !href.startsWith('#') ? absolute(href, url) : null))
    .filter((h): h is string => h !== null && h !== absolute(url.href, url));
  const brandEl = $('.navbar-brand, header [class*="brand"], nav [class*="brand"]').first();
  const logoSrc = brandEl.find('img').first().attr('src');
  const sheets: PageSignals['sheets'] = [];
  $('link[rel~="stylesheet" i][href], style').each((_, el) => {
    if (el.tagName === 'style') sheets.push({ inline: $(el).text() });
    else {
      const href = absolute($(el).attr('href') ?? '', url);
      if (href) sheets.push({ href });
    }
  });
  return {
    nav,
    previews,
    previewCards: new Set(cardPreviews($).map((a) => $(a).closest('[class*="card"], li')[0])).size,
    looksLikePost: looksLikePost($),
    brand: {
      name: safeText(brandEl.text(), 200) || safeText(brandEl.find('img').attr('alt') ?? '', 200) || null,
      logo: logoSrc ? absolute(logoSrc, url) : null,
    },
    sheets,
  };
}

/** Links only an index of posts has (a post's own article links are not among them). */
const INDEX_LINKS = '[class*="post-preview"] a[href], [class*="post-card"] a[href]';
const READ_MORE = /^(?:read more|continue reading|read (?:the )?(?:post|article|story))\b/i;

/**
 * Links of cards that preview a post (Bootstrap's blog cards carry no "post" class): in a card that
 * shows a date, the link around its title or its "Read more" button.
 */
function cardPreviews($: CheerioAPI): AnyNode[] {
  return $('[class*="card"], li')
    .toArray()
    .filter((card) => DATE.test(textOf($, card)) || $(card).find('time').length > 0)
    .flatMap((card) =>
      $(card)
        .find('a[href]')
        .toArray()
        .filter(
          (a) =>
            $(a).find('h2, h3, h4, h5, [class*="title"]').length > 0 ||
            $(a).is('h2 a, h3 a, h4 a, h5 a, [class*="title"] a') ||
            READ_MORE.test(textOf($, a)),
        ),
    );
}

/** A document reads as a blog post: marked as an article, or with a post header or byline. */
function looksLikePost($: CheerioAPI): boolean {
  if ($('article').length > 1) return false; // a listing of articles is an index, not a post
  // A page that previews posts is their index, even when its previews carry post-meta lines.
  const listed = [...$(INDEX_LINKS).toArray(), ...cardPreviews($)]
    .map((a) => ($(a).attr('href') ?? '').trim())
    .filter((h) => h && !h.startsWith('#'));
  if (new Set(listed).size > 1) return false;
  if (($('meta[property="og:type"]').attr('content') ?? '').toLowerCase() === 'article') return true;
  if ($('.post-heading, [class*="post-meta"], article time[datetime], header .meta').length > 0) return true;
  // One article opening with its own title and a "Posted on … by …" line (Bootstrap's blog post).
  const h1 = $('article h1').first();
  if (!h1.length) return false;
  const next = h1.nextAll().first();
  return next.length > 0 && /^(?:posted|published|written)\b/i.test(textOf($, next[0]!));
}
