// The site's furniture (R-MIG-3): blocks outside a page's main content that repeat, word for word,
// across the site (an information bar with the phone number, a ticker, a logo and banner row, a
// sidebar). A visitor meets them on every page; the new site keeps them once, on its home page, rather
// than copying them into every page. A block is one outer part of the page: it is not inside the main
// content, holds none of it, and sits beside it (a child of the body, or of a wrapper that also holds
// the main content). Each is known by a fingerprint of its words and pictures, so the crawler can count
// them across pages and the converter find the same blocks again.
import { createHash } from 'node:crypto';
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { isTag, tagOf, textOf } from './dom.js';

const MAIN = 'main, article, [role="main"], h1';

/** The outer blocks of a page with their fingerprints (footers included; the caller decides). */
export function outerBlocks($: CheerioAPI): Array<{ el: Element; key: string }> {
  const out: Array<{ el: Element; key: string }> = [];
  const visit = (parent: Element) => {
    for (const el of parent.children.filter(isTag) as Element[]) {
      if (['script', 'style', 'noscript', 'template', 'link', 'meta'].includes(tagOf(el))) continue;
      if ($(el).is(MAIN)) continue;
      if ($(el).find(MAIN).length) {
        visit(el); // a wrapper around the main content: its other children are blocks beside it
        continue;
      }
      const text = textOf($, el);
      const pictures = $(el)
        .find('img')
        .toArray()
        .map((i) => (i as Element).attribs.src ?? '')
        .join(' ');
      if (text.length < 12 && !pictures) continue;
      const key = createHash('sha256')
        .update(`${tagOf(el)}\n${text}\n${pictures}`)
        .digest('hex')
        .slice(0, 16);
      out.push({ el, key });
    }
  };
  const body = $('body')[0] as Element | undefined;
  if (body) visit(body);
  return out;
}

/**
 * Fingerprints on the home page (the first) that repeat on at least half the pages, two at least: the
 * site's furniture. A block repeated only on other pages (a post's "Back to the blog") stays on each.
 */
export function furnitureOf(pages: ReadonlyArray<readonly string[]>): Set<string> {
  const count = new Map<string, number>();
  for (const keys of pages) for (const k of new Set(keys)) count.set(k, (count.get(k) ?? 0) + 1);
  const min = Math.max(2, Math.ceil(pages.length / 2));
  return new Set((pages[0] ?? []).filter((k) => (count.get(k) ?? 0) >= min));
}
