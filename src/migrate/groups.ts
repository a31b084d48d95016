// Repeated items -> the service's typed sections (R-MIG-3: "feature grids, team sections,
// testimonials, pricing, FAQs … map to those section types with their titles and items"). A group is
// two or more sibling elements of the same shape, each with a title (or each just an image); its kind
// is read from what the items hold: a quote, a price, a question that toggles an answer, a link to a
// blog post, or none of these (features: services, team members, portfolio, timeline).
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import type { SectionType } from '../domain/sections/types.js';
import {
  type LinkFn,
  classOf,
  flowBlocks,
  isTag,
  lineOf,
  safeMarkdown,
  safeText,
  tagOf,
  textOf,
  DATE,
} from './dom.js';

export type Draft = { type: SectionType; content: Record<string, unknown>; identity?: string };

export type GroupCtx = {
  $: CheerioAPI;
  link: LinkFn;
  /** asset reference for an image URL (absolute), or null when it cannot be imported. */
  image: (el: Element) => string | null;
  /** The new path of a blog post, when the href (resolved) is one. */
  postPath: (href: string) => string | null;
  onPreview?: (postPath: string, excerpt: string) => void;
  /** The section reference of the background painted on an element or inside it, once used. */
  background?: (el: Element) => string | null;
  hasBackground?: (el: Element) => boolean;
};

// Sections and page landmarks are regions, never items of a group, even when they look alike.
const NOT_ITEM = new Set([
  'hr',
  'br',
  'script',
  'style',
  'p',
  'span',
  'a',
  'img',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
]);
const PRICE = /(?:[$€£¥]\s?\d)|(?:\d[\d.,]*\s?(?:€|£|\$|usd|eur|gbp))|(?:\/\s?(?:mo|month|yr|year)\b)/i;

function signature(el: Element): string {
  const tag = tagOf(el);
  if (tag === 'li' || tag === 'details' || tag === 'figure' || tag === 'article' || tag === 'tr') return tag;
  return `${tag}.${(el.attribs.class ?? '').trim().split(/\s+/)[0] ?? ''}`;
}

/** The element naming an item: its first heading, or a title-like element, a summary or toggle. */
function titleOf($: CheerioAPI, item: Element): Element | null {
  const usable = (e: AnyNode) => !/sub-?heading|subtitle/i.test(classOf(e)) && Boolean(textOf($, e));
  const byTag = $(item).find('summary, .accordion-button, h1, h2, h3, h4, h5, h6').toArray().find(usable);
  if (byTag) return byTag as Element;
  // A title drawn with classes ("portfolio-caption-heading", "card-header"): the innermost one.
  const byClass = $(item)
    .find('[class*="heading"], [class*="title"], .card-header, [class*="name"]')
    .toArray()
    .find((e) => usable(e) && !$(e).find('[class*="heading"], [class*="title"], [class*="name"]').length);
  if (byClass) return byClass as Element;
  // A heading drawn with Bootstrap's type classes (".h5", ".fw-bold"): the first short one.
  const DRAWN = '.h1, .h2, .h3, .h4, .h5, .h6, [class*="fw-bold"]';
  const drawn = $(item)
    .find(DRAWN)
    .toArray()
    .find((e) => usable(e) && textOf($, e).length <= 80 && !$(e).find(DRAWN).length);
  if (drawn) return drawn as Element;
  // A picture with a linked name beside it (a "top authors" list, a team strip): the link names it.
  if ($(item).find('img').length === 1) {
    const named = $(item)
      .find('a[href]')
      .toArray()
      .find((a) => usable(a) && textOf($, a).length <= 80 && !$(a).find('img').length);
    if (named) return named as Element;
  }
  return null;
}

/** The items of a group under `el`, in document order, or null when its children are not one. */
export function groupItems($: CheerioAPI, el: Element): Element[] | null {
  const kids = el.children.filter(
    (c): c is Element => isTag(c) && !['hr', 'br', 'script', 'style'].includes(tagOf(c)),
  );
  if (kids.length < 2) return null;
  const buckets = new Map<string, Element[]>();
  for (const k of kids) {
    if (NOT_ITEM.has(tagOf(k))) continue;
    const sig = signature(k);
    buckets.set(sig, [...(buckets.get(sig) ?? []), k]);
  }
  const best = [...buckets.values()].sort((a, b) => b.length - a.length)[0];
  if (!best || best.length < 2 || best.length * 2 < kids.length) return null;
  const titled = best.filter((i) => titleOf($, i) || $(i).is('blockquote') || $(i).find('blockquote').length);
  if (titled.length === best.length) return best;
  // A row of images only (client logos, a photo strip) is a gallery.
  if (best.every((i) => $(i).find('img').length === 1 && !textOf($, i))) return best;
  // The last timeline-style entry may be only a title inside an image slot; all others must be titled.
  return null;
}

type Kind = 'faq' | 'testimonials' | 'pricing' | 'posts' | 'gallery' | 'stacked' | 'features';

function kindOf(ctx: GroupCtx, container: Element, items: Element[]): Kind {
  const { $ } = ctx;
  const has = (sel: string) => items.every((i) => $(i).is(sel) || $(i).find(sel).length > 0);
  if (items.every((i) => !textOf($, i) && $(i).find('img').length)) return 'gallery';
  if (has('summary, .accordion-button, [data-bs-toggle="collapse"], [data-toggle="collapse"]')) return 'faq';
  if (has('blockquote') || /testimonial|review/i.test(classOf(container))) return 'testimonials';
  if (items.every((i) => PRICE.test(textOf($, i))) && has('ul, ol')) return 'pricing';
  if (
    items.every((i) =>
      $(i)
        .find('a[href]')
        .toArray()
        .some((a) => ctx.postPath((a as Element).attribs.href ?? '')),
    )
  )
    return 'posts';
  const tokens = (e: Element) => (e.attribs.class ?? '').split(/\s+/);
  const grid =
    tokens(container).some((t) =>
      /^(row|grid|card-deck|columns|row-cols-.+|features?|services?|team|portfolio|projects?)$/.test(t),
    ) ||
    items.some((i) =>
      tokens(i).some((t) => /^(col|col-.+|card|feature.*|team.*|portfolio.*|service.*)$/.test(t)),
    ) ||
    items.some((i) => $(i).find('img').length > 0) ||
    items.every((i) => ctx.hasBackground?.(i));
  return grid ? 'features' : 'stacked';
}

const firstImage = (ctx: GroupCtx, item: Element) => {
  for (const img of ctx.$(item).find('img').toArray()) {
    const ref = ctx.image(img as Element);
    if (ref) return ref;
  }
  // A picture painted as the background of the item or of a part of it (a showcase row's photo).
  return ctx.background?.(item) ?? null;
};

function bodyOf(ctx: GroupCtx, item: Element, skip: AnyNode[], max: number): string {
  return safeMarkdown(flowBlocks(ctx.$, item, ctx.link, new Set(skip)).join('\n\n'), max);
}

/** The typed section for a group (without heading: the caller adds the one above it). */
export function groupSection(ctx: GroupCtx, container: Element, items: Element[]): Draft {
  const { $ } = ctx;
  const kind = kindOf(ctx, container, items);
  const title = (i: Element) => titleOf($, i);
  const titleText = (i: Element, max: number) => {
    const t = title(i);
    return t ? safeText(textOf($, t), max) : '';
  };
  switch (kind) {
    case 'gallery':
      return {
        type: 'gallery',
        content: {
          images: items
            .flatMap((i) => $(i).find('img').toArray() as Element[])
            .map((img) => ({ url: ctx.image(img), alt: safeText(img.attribs.alt ?? '', 300) }))
            .filter((x) => x.url)
            .slice(0, 48),
        },
      };
    case 'faq':
      return {
        type: 'faq',
        content: {
          items: items.slice(0, 50).map((i) => ({
            question: titleText(i, 300),
            answer: bodyOf(ctx, i, [title(i)!], 4000),
          })),
        },
      };
    case 'testimonials':
      return {
        type: 'testimonials',
        content: {
          items: items.slice(0, 24).map((i) => {
            const q = $(i).is('blockquote') ? $(i) : $(i).find('blockquote').first();
            const by = $(i).find('figcaption, cite, footer, [class*="author"], [class*="name"]').first();
            const quote = q.length
              ? safeText(
                  q.find('p').length
                    ? q.find('p').text()
                    : q.clone().children('footer, cite').remove().end().text(),
                  2000,
                )
              : titleText(i, 2000);
            const author = safeText(by.length ? textOf($, by[0]!) : '', 120).replace(/^[—–-]\s*/, '');
            // The speaker's photo comes along with the words.
            const photo = firstImage(ctx, i);
            return { quote, author, ...(photo ? { imageUrl: photo } : {}) };
          }),
        },
      };
    case 'pricing':
      return {
        type: 'pricing',
        content: {
          plans: items.slice(0, 6).map((i) => {
            // The price: the outermost short element that reads as one, whatever its tag or class.
            const priced = $(i)
              .find('*')
              .toArray()
              .filter((e) => e !== title(i) && !$(e).is('li, ul, ol, a') && !$(e).closest('li, a').length)
              .filter(
                (e) => PRICE.test(textOf($, e)) && textOf($, e).length <= 40 && !$(e).find('a, li').length,
              );
            const priceEl = priced.find((e) => !priced.some((o) => o !== e && $(o).find(e).length));
            const button = $(buttonsIn($, i)).last();
            const href = button.attr('href') ?? '';
            const url = /^mailto:/i.test(href) ? null : ctx.link(href);
            const features = $(i)
              .find('li')
              .toArray()
              .map((li) => {
                // A plan's line keeps its link ("[SLA](/terms)") when it fits, else its words.
                const md = lineOf($, li, ctx.link).replace(/\s*\n\s*/g, ' ');
                return md.length <= 200 ? md : safeText(textOf($, li), 200);
              })
              .filter(Boolean);
            // A button that mails someone cannot be a button here: its words stay, with the address.
            if (button.length && !url && /^mailto:/i.test(href))
              features.push(safeText(`${textOf($, button[0]!)}: ${href.slice(7).split('?')[0]}`, 200));
            return {
              name: titleText(i, 120),
              price: safeText(priceEl ? textOf($, priceEl) : '', 60),
              features: features.slice(0, 20),
              ...(button.length && url
                ? { buttonLabel: safeText(textOf($, button[0]!), 60), buttonUrl: url }
                : {}),
            };
          }),
        },
      };
    case 'posts':
      // Preview cards with pictures keep them: each card an item whose title leads to the post.
      if (items.every((i) => $(i).find('img').length))
        return {
          type: 'features',
          identity: 'posts',
          content: {
            items: items.slice(0, 24).map((i) => {
              const lead = postLink(ctx, i);
              const t = title(i) ?? lead;
              const image = firstImage(ctx, i);
              const to = lead ? ctx.postPath(lead.attribs.href ?? '') : null;
              // The card's other lines as a text preview writes them (its byline, its summary).
              const [, ...lines] = postPreview(ctx, i).split('\n\n');
              return {
                title: safeText(textOf($, t), 200) || '·',
                body: safeMarkdown(lines.join('\n\n'), 2000),
                ...(image ? { imageUrl: image } : {}),
                ...(to ? { url: to } : {}),
              };
            }),
          },
        };
      return {
        type: 'text',
        identity: 'posts',
        content: { body: safeMarkdown(items.map((i) => postPreview(ctx, i)).join('\n\n'), 20_000) },
      };
    case 'stacked':
      return {
        type: 'text',
        content: {
          body: safeMarkdown(
            items
              .map((i) =>
                [`### ${titleText(i, 200)}`, ...flowBlocks($, i, ctx.link, new Set([title(i)!]))].join(
                  '\n\n',
                ),
              )
              .join('\n\n'),
            20_000,
          ),
        },
      };
    default:
      return {
        type: 'features',
        content: {
          items: items.slice(0, 24).map((i) => {
            const image = firstImage(ctx, i);
            const t = title(i);
            const url = t ? titleLink(ctx, t) : null;
            return {
              title: titleText(i, 200) || '·',
              body: bodyOf(ctx, i, t ? [t] : [], 2000),
              ...(image ? { imageUrl: image } : {}),
              ...(url ? { url } : {}),
            };
          }),
        },
      };
  }
}

/** The link of a post preview that leads to the post. */
function postLink(ctx: GroupCtx, item: Element): Element {
  return ctx
    .$(item)
    .find('a[href]')
    .toArray()
    .find((x) => ctx.postPath((x as Element).attribs.href ?? '')) as Element;
}

/** Where an item's title leads: the link around it or inside it (a card whose title is a link). */
function titleLink(ctx: GroupCtx, t: Element): string | null {
  const a = (ctx.$(t).closest('a[href]')[0] ?? ctx.$(t).find('a[href]')[0]) as Element | undefined;
  if (!a || textOf(ctx.$, a) !== textOf(ctx.$, t)) return null;
  return ctx.postPath(a.attribs.href ?? '') ?? ctx.link(a.attribs.href ?? '');
}

/**
 * Links that act as buttons: marked as one (.btn, role=button), or standing alone as the last word of
 * a card or band: short, with no other words around them in their block.
 */
export function buttonsIn($: CheerioAPI, el: Element): Element[] {
  return ($(el).find('a[href]').toArray() as Element[]).filter((a) => {
    if ($(a).is('a.btn, a[class*="button"], a[role="button"]')) return true;
    const words = textOf($, a);
    if (!words || words.length > 40 || $(a).closest('p, li, td, h1, h2, h3, h4, h5, h6').length) return false;
    const around = a.parent && a.parent !== el ? textOf($, a.parent).replace(words, '').trim() : '';
    return !/[\p{L}\p{N}]/u.test(around);
  });
}

/** A post preview: its title linking to the new post, its subtitle, its byline in italics. */
function postPreview(ctx: GroupCtx, item: Element): string {
  const { $ } = ctx;
  const a = $(item)
    .find('a[href]')
    .toArray()
    .find((x) => ctx.postPath((x as Element).attribs.href ?? '')) as Element;
  const t = titleOf($, item) ?? a;
  const lines = [
    `### [${safeText(textOf($, t), 200).replace(/[[\]]/g, '')}](${ctx.postPath(a.attribs.href ?? '')})`,
  ];
  const sub = $(item).find('[class*="subtitle"], [class*="subheading"], .lead').first();
  if (sub.length && textOf($, sub[0]!)) lines.push(lineOf($, sub[0]!, ctx.link));
  let meta = $(item).find('[class*="meta"], [class*="byline"], time').first();
  // A card's date line ("March 12, 2026 · 6 min read"), with the author beside it when there is one.
  let metaLine = meta.length ? lineOf($, meta[0]!, ctx.link).replace(/\s*\n\s*/g, ' ') : '';
  if (!meta.length) {
    const dated = $(item)
      .find('*')
      .toArray()
      .filter((e) => DATE.test(textOf($, e)) && !$(e).find('a[href]').length)
      .at(-1);
    const box = dated?.parent && dated.parent !== item ? dated.parent : dated;
    if (box && isTag(box) && box.children.filter(isTag).length <= 3) meta = $(box);
    else if (dated) meta = $(dated);
    // Its parts side by side ("Ewan Pryce · March 12, 2026 · 6 min read").
    const parts = meta.children().length ? meta.children().toArray() : meta.toArray();
    metaLine = safeText(
      parts
        .map((e) => textOf($, e))
        .filter(Boolean)
        .join(' · '),
      300,
    );
  }
  if (metaLine) lines.push(`*${metaLine}*`);
  // Short labels the card shows besides (a category, a section's name), whatever their class.
  const said = () => lines.join(' ').toLowerCase();
  const badges = $(item)
    .find('.badge, [class*="category"], [class*="tag"], span, small')
    .toArray()
    .filter((e) => !$(e).children().length && !$(e).closest('a, p, time, h1, h2, h3, h4, h5, h6').length)
    .map((e) => safeText(textOf($, e), 60))
    .filter((b, n, all) => b && all.indexOf(b) === n && !said().includes(b.toLowerCase()));
  if (badges.length) lines.push(badges.join(' · '));
  const excerpt = $(item).find('p').not(meta).not(sub).not(meta.find('p')).first();
  if (excerpt.length && textOf($, excerpt[0]!)) lines.push(lineOf($, excerpt[0]!, ctx.link));
  const summary = excerpt.length ? textOf($, excerpt[0]!) : sub.length ? textOf($, sub[0]!) : '';
  const path = ctx.postPath(a.attribs.href ?? '');
  if (summary && path) ctx.onPreview?.(path, safeText(summary, 300));
  return lines.join('\n\n');
}
