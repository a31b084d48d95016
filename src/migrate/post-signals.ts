// Whether a document is a blog post, a listing of posts, or neither (R-MIG-3), read from general
// signals rather than a template's class names: a listing repeats sibling items that each link to a
// page of the site and show a date (a blog index, an archive, a tag, category or author page, a second
// page of posts); a post has one headline with its date beside it (a `<time>`, a byline, a line under
// the headline), or declares itself an article (og:type, JSON-LD, article:published_time), or carries
// the day in its address. A post's date is read from the same signals, the most precise first.
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { DATE, dateInPath, dateInText, dateOfAttribute } from './dates.js';
import { isTag, tagOf, textOf } from './dom.js';

const CHROME = 'nav, header, footer, [role="navigation"], [role="banner"], [role="contentinfo"], aside';
const sig = (el: Element) => `${tagOf(el)}.${(el.attribs.class ?? '').trim().split(/\s+/)[0] ?? ''}`;

function sameSite(href: string, page: URL): URL | null {
  try {
    const u = new URL(href.trim(), page);
    if (u.origin !== page.origin || (u.pathname === page.pathname && u.search === page.search)) return null;
    u.hash = '';
    return u;
  } catch {
    return null;
  }
}

/** The link an item leads with: the one in (or around) its heading, else one that names itself, else its first. */
function primaryLink($: CheerioAPI, item: Element, page: URL): Element | null {
  const links = ($(item).find('a[href]').toArray() as Element[]).filter((a) =>
    sameSite(a.attribs.href ?? '', page),
  );
  return (
    links.find(
      (a) => $(a).closest('h1, h2, h3, h4, h5, h6').length || $(a).find('h1, h2, h3, h4, h5, h6').length,
    ) ??
    links.find((a) => a.attribs['aria-label'] || a.attribs.title) ??
    links[0] ??
    null
  );
}

const dated = ($: CheerioAPI, el: AnyNode) => $(el).find('time').length > 0 || DATE.test(textOf($, el));

export type Listing = { items: Element[]; links: Element[] };

/**
 * A listing's items and their lead links: two or more siblings of one shape, each holding a link to
 * another page of the site and a date, outside the menus; or an article or a list's only entry that
 * previews one (no headline of its own, a date, a link on). Empty when the page lists no posts.
 */
export function listingOf($: CheerioAPI, page: URL): Listing {
  const out = new Map<Element, Element>();
  // An article or a list's only entry that previews a post: a listing of one.
  const lone = $('ul > li:only-child, ol > li:only-child').toArray() as Element[];
  for (const art of [...($('article').toArray() as Element[]), ...lone]) {
    if ($(art).closest(CHROME).length || $(art).find('h1').length || !dated($, art)) continue;
    const lead = primaryLink($, art, page);
    if (lead) out.set(art, lead);
  }
  $('body, body *').each((_, parent) => {
    const kids = (parent as Element).children.filter(isTag) as Element[];
    if (kids.length < 2 || $(parent).closest(CHROME).length) return;
    const groups = new Map<string, Element[]>();
    for (const k of kids) groups.set(sig(k), [...(groups.get(sig(k)) ?? []), k]);
    for (const items of groups.values()) {
      if (items.length < 2) continue;
      const leads = items.map((i) => (dated($, i) ? primaryLink($, i, page) : null));
      if (leads.filter(Boolean).length < 2) continue;
      items.forEach((i, n) => {
        if (leads[n]) out.set(i, leads[n]);
      });
    }
  });
  // The innermost items: a year of an archive holds its posts' entries, each an item of its own.
  const items = [...out.keys()].filter((i) => ![...out.keys()].some((o) => o !== i && $(i).find(o).length));
  return { items, links: items.map((i) => out.get(i)!) };
}

/** The words of the page's main content outside its listing and its menus, header and footer. */
export function ownWords($: CheerioAPI, listing: Listing): number {
  const root = ($('main, [role="main"]')[0] ?? $('body')[0] ?? $.root()[0]) as Element;
  const skip = new Set<AnyNode>(listing.items);
  let n = 0;
  const visit = (node: AnyNode) => {
    if (skip.has(node)) return;
    if (node.type === 'text') n += (node as unknown as { data: string }).data.trim().length;
    else if (isTag(node) && !$(node).is(`${CHROME}, script, style, form, h1`))
      for (const c of node.children) visit(c);
  };
  visit(root);
  return n;
}

/** The one headline of the page's main content (its h1), with the article or header around it. */
function headline($: CheerioAPI): { h1: Element; box: Element | null } | null {
  const h1s = ($('h1').toArray() as Element[]).filter((h) => textOf($, h));
  if (h1s.length !== 1) return null;
  const h1 = h1s[0]!;
  const box = ($(h1).closest('header')[0] ?? $(h1).closest('article')[0] ?? null) as Element | null;
  return { h1, box };
}

/** The date printed with the headline: a `<time>` beside it, a byline, or a line just under it. */
function headlineDate($: CheerioAPI): string | null {
  const found = headline($);
  if (!found) return null;
  const { h1, box } = found;
  // The headline's own header or article, else only the lines right after it (not a list of previews).
  const after = ($(h1).nextAll().slice(0, 3).toArray() as Element[]).filter(
    (e) => !$(e).find('article, h2, h3').length && !$(e).is('article'),
  );
  const times = box
    ? $(box).find('time').toArray()
    : $(after).find('time').add($(after).filter('time')).toArray();
  for (const t of times as Element[]) {
    const d = dateOfAttribute(t.attribs.datetime ?? '') ?? dateInText(textOf($, t));
    if (d) return d;
  }
  // A line that is mostly its date ("Posted by Mara Quill on March 3, 2026"), not a paragraph that
  // mentions one ("It was last changed on 2 January 2026").
  const marked = box ? $(box).find('[class*="meta"], [class*="byline"], [class*="date"]').toArray() : [];
  for (const el of [...after, ...marked]) {
    const text = textOf($, el);
    const d = dateInText(text);
    if (d && text.replace(DATE, '').trim().length <= 60) return d;
  }
  return null;
}

/** The date the document declares for itself (meta tags, JSON-LD), or null. */
function declaredDate($: CheerioAPI): string | null {
  const meta = $(
    'meta[property="article:published_time"], meta[name="date"], meta[itemprop="datePublished"], [itemprop="datePublished"][datetime]',
  )
    .toArray()
    .map((m) => (m as Element).attribs.content ?? (m as Element).attribs.datetime ?? '');
  for (const v of meta) if (dateOfAttribute(v)) return dateOfAttribute(v);
  for (const s of $('script[type="application/ld+json"]').toArray()) {
    const m = /"datePublished"\s*:\s*"([^"]+)"/.exec($(s).text());
    if (m && dateOfAttribute(m[1]!)) return dateOfAttribute(m[1]!);
  }
  return null;
}

function declaresArticle($: CheerioAPI): boolean {
  if (($('meta[property="og:type"]').attr('content') ?? '').toLowerCase() === 'article') return true;
  return $('script[type="application/ld+json"]')
    .toArray()
    .some((s) => /"@type"\s*:\s*"(?:Blog)?(?:Posting|NewsArticle|Article|BlogPosting)"/.test($(s).text()));
}

/** A post and its date, or null when the document is no post (a listing is never one). */
export function postOf($: CheerioAPI, page: URL, listing: number): { date: string | null } | null {
  if (listing >= 2 || $('article').length > 1) return null;
  // A page with one preview is a post only when its own headline is dated (a post with a related one).
  if (listing === 1 && !headlineDate($) && !declaresArticle($)) return null;
  const date = headlineDate($) ?? declaredDate($) ?? dateInPath(page.pathname);
  // A template's post header beside the headline, or one article opening with its title and a
  // "Posted on … by …" line.
  const opening = $('article h1').first().nextAll().first()[0];
  const templateMarks =
    (headline($) !== null &&
      $('.post-heading, [class*="post-meta"], article:has(h1) time[datetime], header .meta').length > 0) ||
    (opening !== undefined && /^(?:posted|published|written)\b/i.test(textOf($, opening)));
  if (declaresArticle($) || templateMarks || (headline($) && (headlineDate($) || dateInPath(page.pathname))))
    return { date };
  return null;
}
