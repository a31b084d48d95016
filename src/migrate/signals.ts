// What site planning needs from each page (issue 16), read once while the crawler has the page parsed,
// so no two documents are held as DOM trees at the same time: the navigation's labels, links that
// preview blog posts, whether the page reads as a post, the brand in its header, its stylesheets.
import type { CheerioAPI } from 'cheerio';
import { safeText, textOf } from './dom.js';

export type PageSignals = {
  /** Navigation links (absolute, no fragment) with their labels, in document order. */
  nav: Array<{ href: string; label: string }>;
  /** Links that preview a post: a blog index's post previews, or its articles' heading links. */
  previews: string[];
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
  const previews = [...$(PREVIEW_LINKS).toArray(), ...listed]
    .map((a) => (a ? absolute($(a).attr('href') ?? '', url) : null))
    .filter((h): h is string => h !== null);
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
    looksLikePost: looksLikePost($),
    brand: {
      name: safeText(brandEl.text(), 200) || safeText(brandEl.find('img').attr('alt') ?? '', 200) || null,
      logo: logoSrc ? absolute(logoSrc, url) : null,
    },
    sheets,
  };
}

/** A document reads as a blog post: marked as an article, or with a post header or byline. */
function looksLikePost($: CheerioAPI): boolean {
  if ($('article').length > 1) return false; // a listing of articles is an index, not a post
  if (($('meta[property="og:type"]').attr('content') ?? '').toLowerCase() === 'article') return true;
  return $('.post-heading, [class*="post-meta"], article time[datetime], header .meta').length > 0;
}
