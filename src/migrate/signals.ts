// What site planning needs from each page (R-MIG-3), read once while the crawler has the page parsed,
// so no two documents are held as DOM trees at the same time: the menu's labels, links that preview
// blog posts, whether the page is a post (and its date) or a listing of posts, the brand in its header,
// its outer blocks (furniture.ts), its stylesheets.
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { DATE } from './dates.js';
import { classOf, safeText, textOf } from './dom.js';
import { outerBlocks } from './furniture.js';
import { listingOf, ownWords, postOf } from './post-signals.js';

export type PageSignals = {
  /** Menu links (absolute, no fragment) with their labels, in document order. */
  nav: Array<{ href: string; label: string }>;
  /** Links that preview a post: a listing's items, a blog index's post previews. */
  previews: string[];
  /** Dated cards with a title or "Read more" link, dead links ("#!") included: a template's blog index. */
  previewCards: number;
  /** Items of a listing of posts on this page. */
  listed: number;
  /** Characters of the main content's own words, outside its listing, menus, header and footer. */
  ownText: number;
  /** Addresses the main content links to (same site, outside menus, header and footer). */
  links: string[];
  looksLikePost: boolean;
  /** A post's date (YYYY-MM-DD) as the page shows it, or null. */
  date: string | null;
  brand: { name: string | null; logo: string | null };
  /** Fingerprints of the page's outer blocks (furniture.ts). */
  blocks: string[];
  /** `<link rel=stylesheet>` addresses and inline `<style>` text, in document order. */
  sheets: Array<{ href: string } | { inline: string }>;
};

const NAV_LINKS = 'nav a[href], .navbar a[href], [role="navigation"] a[href]';
// A menu drawn without <nav>: the links of a header bar's list ("ul.main-menu" in a div).
const BAR_MENU = 'header li > a[href], [class*="header"] li > a[href], [class*="menu"] li > a[href]';
const PREVIEW_LINKS =
  '[class*="post-preview"] a[href], [class*="post-card"] a[href], article[class*="post"] a[href], [class*="post-title"] a[href], a[href]:has([class*="post-title"])';
/** The brand's link: it holds the logo, or is marked as the brand, never a menu label. */
const BRAND = /brand|logo/i;

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

const isBrandLink = ($: CheerioAPI, a: AnyNode) =>
  $(a).find('img').length > 0 || BRAND.test(`${classOf(a)} ${a.parent ? classOf(a.parent) : ''}`);

export function readSignals($: CheerioAPI, url: URL): PageSignals {
  const nav: PageSignals['nav'] = [];
  const menu = $(NAV_LINKS).length ? $(NAV_LINKS) : $(BAR_MENU);
  menu.each((_, a) => {
    const raw = $(a).attr('href') ?? '';
    // An anchor names a place on a page, not the page; the brand link is the site's name.
    if (raw.includes('#') || isBrandLink($, a) || $(a).closest('footer').length) return;
    // A breadcrumb trail names where a page sits, not what it is called.
    if ($(a).closest('[class*="breadcrumb" i], [aria-label*="breadcrumb" i]').length) return;
    const href = absolute(raw, url);
    const label = safeText(textOf($, a), 200);
    if (href && label) nav.push({ href, label });
  });
  const listing = listingOf($, url);
  const post = postOf($, url, listing.items.length);
  const articles = $('article');
  const listed =
    articles.length > 1
      ? articles
          .toArray()
          .map((art) => $(art).find('h1 a[href], h2 a[href], h3 a[href], a[href]:has(h2, h3)')[0])
      : [];
  // A post's own links (to its tags, its author, the next post) preview nothing.
  const previews = (
    post ? [] : [...$(PREVIEW_LINKS).toArray(), ...listed, ...cardPreviews($), ...listing.links]
  )
    .map((a) => (a ? ($(a).attr('href') ?? '').trim() : ''))
    // "#!" placeholders and links to this same page name no post.
    .map((href) => (href && !href.startsWith('#') ? absolute(href, url) : null))
    .filter((h): h is string => h !== null && h !== absolute(url.href, url));
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
    previews: [...new Set(previews)],
    previewCards: new Set(cardPreviews($).map((a) => $(a).closest('[class*="card"], li')[0])).size,
    listed: listing.items.length,
    ownText: ownWords($, listing),
    links: contentLinks($, url),
    looksLikePost: post !== null,
    date: post?.date ?? null,
    brand: brandOf($, url),
    blocks: outerBlocks($).map((b) => b.key),
    sheets,
  };
}

/**
 * The brand in the page's header: the element marked as the brand, else the picture linked to the
 * home page in the header or menu (a logo), with the name it gives.
 */
function brandOf($: CheerioAPI, url: URL): PageSignals['brand'] {
  const marked = $('.navbar-brand, header [class*="brand"], nav [class*="brand"]').first();
  const home = absolute('/', url);
  const linked = $(
    'header a[href], nav a[href], [role="banner"] a[href], [class*="header"] a[href], [class*="logo"] a[href]',
  )
    .toArray()
    .find((a) => absolute((a as Element).attribs.href ?? '', url) === home && $(a).find('img').length);
  const logoEl = (marked.find('img')[0] ?? (linked && $(linked).find('img')[0])) as Element | undefined;
  const src = logoEl ? (logoEl.attribs['data-src'] ?? logoEl.attribs.src) : undefined;
  const name =
    safeText(marked.text(), 200) ||
    safeText(marked.find('img').attr('alt') ?? '', 200) ||
    safeText($('meta[property="og:site_name"]').attr('content') ?? '', 200) ||
    safeText(logoEl?.attribs.alt ?? '', 200) ||
    null;
  return { name, logo: src ? absolute(src, url) : null };
}

function contentLinks($: CheerioAPI, url: URL): string[] {
  const out = new Set<string>();
  $('a[href]').each((_, a) => {
    if ($(a).closest('nav, header, footer, aside, [role="navigation"]').length) return;
    const href = absolute($(a).attr('href') ?? '', url);
    if (href && new URL(href).origin === url.origin && href !== absolute(url.href, url)) out.add(href);
  });
  return [...out];
}

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
