// HTML -> sections (SPEC §4.5 migrate_site_from_url; issue 16): a crawled page is rebuilt, as a visitor
// sees it, from the service's own section types — a masthead becomes a hero (heading, subheading,
// button, background image from inline style or stylesheet), headings start text sections, repeated
// items become features / testimonials / pricing / FAQ (groups.ts), figures keep their captions in
// place, a form becomes a contact section, the footer's text and links are kept. Hidden content is
// not expanded. Scripts, booking widgets, embeds and forms are left out and turned into
// actionsRequired lines. Each section carries an identity (its region's id, its heading) from which
// the site builder derives a stable externalKey.
import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { isSafeUrl } from '../domain/sections/types.js';
import {
  type LinkFn,
  SUBHEADING,
  blockMd,
  classOf,
  flowBlocks,
  isInlineOnly,
  isTag,
  lineOf,
  removeHidden,
  safeMarkdown,
  safeText,
  tagOf,
  textOf,
} from './dom.js';
import { type Draft, type GroupCtx, groupItems, groupSection } from './groups.js';

export { safeText } from './dom.js';

export type ConvertCtx = {
  link: LinkFn;
  /** The new path of a blog post, when the href (relative to this page) is one. */
  postPath: (href: string) => string | null;
  /** Section reference of an image URL (absolute). */
  assetRef: (imageUrl: string) => string;
  /** Told the summary a blog index shows for a post (the post's excerpt). */
  onPreview?: (postPath: string, excerpt: string) => void;
  backgrounds: Map<AnyNode, string>;
  isPost: boolean;
};

export type ConvertedPage = {
  path: string;
  /** The document's <title>, its main heading (h1 or the masthead's), its description. */
  docTitle: string;
  mainHeading: string | null;
  seoDescription: string | null;
  siteName: string | null;
  themeColor: string | null;
  sections: Draft[];
  images: Array<{ url: string; alt: string }>;
  /** A post's summary: its subheading, else its first paragraph. */
  excerpt: string | null;
  actions: string[];
  /** Background images found on elements whose section type has no background. */
  unusedBackgrounds: string[];
};

const BOOKING =
  /calendly\.com|acuityscheduling\.com|squareup\.com\/appointments|setmore\.com|simplybook\.me|fresha\.com|booksy\.com|opentable\.com|resy\.com|youcanbook\.me|tockhq\.com|cal\.com/i;
const MAX_SECTIONS = 60;
/** Class names templates give a page's header band: `masthead`, `hero-section`, `cover--home`, `jumbotron`. */
const MASTHEAD_CLASS =
  /^(masthead|hero|jumbotron|cover|banner|page-header|page-hero|intro|splash|showcase)([-_].*)?$/i;
const isMasthead = (el: AnyNode) =>
  isTag(el) &&
  ((tagOf(el) === 'header' && !isInside(el, 'article')) ||
    classOf(el)
      .split(/\s+/)
      .some((t) => MASTHEAD_CLASS.test(t)));
function isInside(el: AnyNode, tag: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && tagOf(p) === tag) return true;
  return false;
}
const BYLINE = '.meta, [class*="post-meta"], [class*="byline"]';
const BUTTON = 'a.btn, a[class*="button"], a[role="button"]';
const REGION = new Set(['section', 'article', 'aside', 'header', 'main']);

export function slugFor(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  const s = decoded
    .toLowerCase()
    .replace(/\/index\.(html?|php|aspx?)$/, '')
    .replace(/\.(html?|php|aspx?)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return s || 'home';
}

/** An href as a Markdown link target: absolute http(s), never a character a Markdown link breaks on. */
export function mdUrl(u: URL): string | null {
  const href = u.href.replace(/[()'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return isSafeUrl(href) && href.length <= 2000 ? href : null;
}

/** A single-page converter (no site around it): links stay absolute, images are referenced by URL. */
export function standaloneCtx(url: URL, assetRef: (u: string) => string): ConvertCtx {
  return {
    link: (href) => {
      if (!href || href.startsWith('#'))
        return href.length > 1 && isSafeUrl(href) && href !== '#!' ? href : null;
      try {
        const u = new URL(href, url);
        return u.protocol === 'http:' || u.protocol === 'https:' ? mdUrl(u) : null;
      } catch {
        return null;
      }
    },
    postPath: () => null,
    assetRef,
    backgrounds: new Map(),
    isPost: false,
  };
}

export function convertPage(
  html: string | CheerioAPI,
  url: URL,
  assetRefOrCtx: ((imageUrl: string) => string) | ConvertCtx,
): ConvertedPage {
  const $ = typeof html === 'string' ? cheerio.load(html) : html;
  const ctx = typeof assetRefOrCtx === 'function' ? standaloneCtx(url, assetRefOrCtx) : assetRefOrCtx;
  const path = url.pathname;
  const actions: string[] = [];
  const docTitle = safeText($('title').first().text(), 200);
  const seoDescription = safeText($('meta[name="description"]').attr('content') ?? '', 500) || null;
  const siteName = safeText($('meta[property="og:site_name"]').attr('content') ?? '', 200) || null;
  const color = ($('meta[name="theme-color"]').attr('content') ?? '').trim();
  const themeColor = /^#[0-9a-f]{3,8}$/i.test(color) ? color.toLowerCase() : null;

  // What is left out, and what the owner must redo.
  let booking = false;
  const embedHosts = new Set<string>();
  $('iframe[src], script[src], embed[src], object[data]').each((_, el) => {
    const src = $(el).attr('src') ?? $(el).attr('data') ?? '';
    if (BOOKING.test(src)) booking = true;
    else if (el.tagName !== 'script') {
      try {
        embedHosts.add(new URL(src, url).hostname);
      } catch {
        embedHosts.add('an unknown source');
      }
    }
  });
  if ($('[class*="booking" i], [id*="booking" i], [data-booking]').length) booking = true;
  if (booking)
    actions.push(`Re-add the booking widget that was on ${path} (booking widgets are not carried over).`);
  for (const host of embedHosts) {
    actions.push(`Re-add the embedded content from ${host} on ${path} (embeds are not carried over).`);
  }
  const popups = removeHidden($);
  if (popups.length) {
    actions.push(
      `${popups.length} pop-up(s) on ${path} were not carried over (${popups.slice(0, 6).join('; ')}): hidden content is not expanded. Add what you need from them as sections.`,
    );
  }
  if ($('form').length) {
    actions.push(
      `Re-create the contact form that was on ${path} (a contact section with the standard form was added).`,
    );
  }
  const mailto = ($('a[href^="mailto:"]').first().attr('href') ?? '').slice(7).split('?')[0] ?? '';
  const tel = ($('a[href^="tel:"]').first().attr('href') ?? '').slice(4);
  $('script, style, noscript, template, iframe, embed, object, svg, canvas, link, meta').remove();
  $('[class*="booking" i], [id*="booking" i], [data-booking]').remove();

  const b = new Builder($, url, ctx, {
    email: /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(mailto) ? mailto : null,
    phone: safeText(decodeURIComponent(tel), 40) || null,
  });
  // The page's footer (not a quote's or an article's own <footer>).
  const footers = $('footer')
    .toArray()
    .filter((f) => !$(f).parents('article, main, section, footer, blockquote, figure, aside').length);
  const footerBlocks = footers.length ? flowBlocks($, footers.at(-1) as Element, ctx.link) : [];
  for (const f of footers) $(f).remove();
  // The site's header bar (logo and menu) is rebuilt by the service's own header, like the menu.
  $('nav, [role="navigation"], .navbar').each((_, nav) => {
    const bar = $(nav).parent().closest('header, [class*="header"], [class*="topbar"]');
    if (bar.length && !bar.find('h1, h2').length && !ctx.backgrounds.has(bar[0]!)) bar.remove();
  });
  $('nav, [role="navigation"], .navbar').remove();

  const body = ($('body')[0] ?? $.root()[0]) as Element;
  b.hero();
  b.walk(body);
  b.flush();
  if (footerBlocks.length) {
    b.emit({
      type: 'text',
      identity: 'footer',
      content: { body: safeMarkdown(footerBlocks.join('\n\n'), 20_000) },
    });
  }
  const unusedBackgrounds = [...ctx.backgrounds]
    .filter(([el, bgUrl]) => !b.usedBackgrounds.has(bgUrl) && $(el).closest('html').length > 0)
    .map(([, bgUrl]) => bgUrl);
  return {
    path,
    docTitle,
    mainHeading: b.mainHeading,
    seoDescription,
    siteName,
    themeColor,
    sections: b.sections.slice(0, MAX_SECTIONS),
    images: b.images,
    excerpt: b.excerpt,
    actions,
    unusedBackgrounds: [...new Set(unusedBackgrounds)],
  };
}

type Pending = { heading?: string; level?: number; lines: string[] };

class Builder {
  sections: Draft[] = [];
  images: Array<{ url: string; alt: string }> = [];
  usedBackgrounds = new Set<string>();
  mainHeading: string | null = null;
  excerpt: string | null = null;
  private pending: Pending | null = null;
  private byline: string | null = null;
  private skip = new Set<AnyNode>();
  private regions: Array<string | null> = [];
  private regionUsed = new Set<string>();
  private g: GroupCtx;

  constructor(
    private $: CheerioAPI,
    private url: URL,
    private ctx: ConvertCtx,
    private contactInfo: { email: string | null; phone: string | null },
  ) {
    this.g = {
      $,
      link: ctx.link,
      image: (img) => this.imageRef(img),
      postPath: ctx.postPath,
      onPreview: ctx.onPreview,
    };
  }

  private imageRef(img: Element): string | null {
    const src = img.attribs.src ?? img.attribs['data-src'] ?? '';
    if (!src || src.startsWith('data:')) return null;
    try {
      const abs = new URL(src, this.url);
      if (abs.protocol !== 'http:' && abs.protocol !== 'https:') return null;
      abs.hash = '';
      this.images.push({ url: abs.href, alt: safeText(img.attribs.alt ?? '', 300) });
      return this.ctx.assetRef(abs.href);
    } catch {
      return null;
    }
  }

  private background(el: Element): string | null {
    const own = this.ctx.backgrounds.get(el);
    const inner =
      own ??
      this.$(el)
        .find('*')
        .toArray()
        .map((d) => this.ctx.backgrounds.get(d))
        .find(Boolean);
    if (!inner) return null;
    this.usedBackgrounds.add(inner);
    this.images.push({ url: inner, alt: '' });
    return this.ctx.assetRef(inner);
  }

  private region(): string | null {
    for (let i = this.regions.length - 1; i >= 0; i--) if (this.regions[i]) return this.regions[i]!;
    return null;
  }

  emit(d: Draft, heading?: string): void {
    const slug = slugFor(heading ?? String(d.content.heading ?? ''));
    const own = d.identity ?? (slug !== 'home' ? slug : d.type);
    const region = this.region();
    let identity = own;
    if (region && !d.identity?.startsWith('hero') && d.identity !== 'footer') {
      identity = this.regionUsed.has(region) ? `${region}/${own}` : region;
      this.regionUsed.add(region);
    }
    this.sections.push({ ...d, identity });
  }

  flush(): void {
    const p = this.pending;
    this.pending = null;
    if (!p || (!p.heading && !p.lines.length && !this.byline)) return;
    if (this.ctx.isPost) {
      const lines = this.byline ? [`*${this.byline}*`, ...p.lines] : p.lines;
      this.byline = null;
      const body = safeMarkdown(
        [p.heading ? `## ${p.heading}` : '', ...lines].filter(Boolean).join('\n\n'),
        20_000,
      );
      if (!this.excerpt) this.excerpt = safeText(p.lines.find((l) => !/^[#>*-]/.test(l)) ?? '', 300) || null;
      if (body) this.emit({ type: 'blog_body', identity: 'body', content: { body } });
      return;
    }
    const body = safeMarkdown(p.lines.join('\n\n'), 20_000);
    this.emit({ type: 'text', content: p.heading ? { heading: p.heading, body } : { body } }, p.heading);
  }

  private line(md: string): void {
    if (!md.trim()) return;
    this.pending ??= { lines: [] };
    this.pending.lines.push(md);
  }

  /** The masthead (or, without one, the page's first h1) becomes the hero. */
  hero(): void {
    const $ = this.$;
    const h1 = $('h1').first()[0] as Element | undefined;
    // The outermost header band that holds a heading; else the region around the first h1 when it
    // is painted with a background image (whatever its class names).
    const masthead =
      ($('body *')
        .toArray()
        .find(
          (el) =>
            isMasthead(el) && !$(el).parents().toArray().some(isMasthead) && headingIn($, el as Element),
        ) as Element | undefined) ??
      ((h1 &&
        $(h1)
          .parents()
          .toArray()
          .find((el) => this.ctx.backgrounds.has(el) && tagOf(el) !== 'body' && tagOf(el) !== 'html')) as
        | Element
        | undefined);
    const heading = masthead ? headingIn($, masthead)! : h1;
    if (!heading) return;
    this.mainHeading = safeText(textOf($, h1 ?? heading), 200) || null;
    const content: Record<string, unknown> = { heading: safeText(textOf($, heading), 200) };
    const used: AnyNode[] = [heading];
    let sub: Element | undefined;
    if (masthead) {
      sub = $(masthead)
        .find('[class*="subheading"], [class*="subtitle"], .lead, [class*="tagline"]')
        .toArray()
        .find((e) => e !== heading && !$(e).find(heading).length && textOf($, e)) as Element | undefined;
      if (!sub && !this.ctx.isPost)
        sub = $(masthead)
          .find('p')
          .toArray()
          .find((e) => textOf($, e).length <= 300) as Element | undefined;
      const meta = $(masthead).find(BYLINE).first()[0];
      if (meta && this.ctx.isPost) {
        this.byline = lineOf($, meta, this.ctx.link).replace(/\n/g, ' ');
        used.push(meta);
      }
    } else {
      const next = $(heading).nextAll().first()[0] as Element | undefined;
      if (next && this.ctx.isPost && ($(next).is(BYLINE) || $(next).find('time').length)) {
        // A post's byline ("By Bea Carver · 14 March 2026") opens its body, in italics.
        this.byline = lineOf($, next, this.ctx.link).replace(/\n/g, ' ');
        used.push(next);
      } else if (
        next &&
        (SUBHEADING.test(classOf(next)) || (tagOf(next) === 'p' && textOf($, next).length <= 300))
      )
        sub = next;
    }
    if (sub) {
      content.subheading = safeMarkdown(lineOf($, sub, this.ctx.link).replace(/\n/g, ' '), 300);
      used.push(sub);
      if (this.ctx.isPost) this.excerpt = safeText(textOf($, sub), 300);
    }
    const button = (masthead ? $(masthead).find(BUTTON) : $())
      .toArray()
      .find((a) => this.ctx.link((a as Element).attribs.href ?? '')) as Element | undefined;
    if (button) {
      content.buttonLabel = safeText(textOf($, button), 60);
      content.buttonUrl = this.ctx.link(button.attribs.href ?? '');
      used.push(button);
    }
    const bg = masthead ? this.background(masthead) : null;
    if (bg) content.imageUrl = bg;
    else {
      const candidates = masthead
        ? $(masthead).find('img')
        : $(sub ?? heading)
            .nextAll()
            .first();
      const img = (candidates.is('img') ? candidates : candidates.find('img')).first()[0] as
        | Element
        | undefined;
      const onlyImage =
        img &&
        (masthead ||
          !textOf(
            $,
            $(sub ?? heading)
              .nextAll()
              .first()[0]!,
          ));
      const ref = onlyImage ? this.imageRef(img) : null;
      if (ref && img) {
        content.imageUrl = ref;
        used.push(
          masthead
            ? img
            : ($(sub ?? heading)
                .nextAll()
                .first()[0] as Element),
        );
      }
    }
    if (!content.subheading) delete content.subheading;
    this.emit({ type: 'hero', identity: 'hero', content });
    if (masthead) {
      this.skip.add(masthead);
      const rest = flowBlocks($, masthead, this.ctx.link, new Set(used));
      if (rest.length)
        this.emit({
          type: 'text',
          identity: 'hero/more',
          content: { body: safeMarkdown(rest.join('\n\n'), 20_000) },
        });
    } else for (const u of used) this.skip.add(u);
  }

  walk(node: Element): void {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      // Images side by side with nothing between them (a team strip, a photo row) are one gallery.
      const run: Element[] = [];
      for (let j = i; j < kids.length; j++) {
        const k = kids[j]!;
        if (k.type === 'text' && !(k as unknown as { data: string }).data.trim()) continue;
        const img = isTag(k) && !this.skip.has(k) ? (tagOf(k) === 'img' ? k : imageOnly(this.$, k)) : null;
        if (!img || /caption/.test(classOf(kids[j + 1] ?? k))) break;
        run.push(img);
        i = j;
      }
      if (run.length >= 2) this.gallery(run);
      else if (run.length === 1) this.image(run[0]!, this.wrapperOf(run[0]!, node));
      else this.visit(kids[i]!);
    }
  }

  private wrapperOf(img: Element, parent: Element): Element {
    let w = img;
    while (w.parent && w.parent !== parent) w = w.parent as Element;
    return w;
  }

  private visit(c: AnyNode): void {
    const $ = this.$;
    if (this.skip.has(c)) return;
    if (!isTag(c)) {
      if (c.type === 'text' && (c as unknown as { data: string }).data.trim())
        this.line(safeText((c as unknown as { data: string }).data, 4000));
      return;
    }
    const tag = tagOf(c);
    if (tag === 'form') {
      this.form();
      return;
    }
    if (tag === 'hr' || tag === 'br') return;
    if (tag === 'img') {
      this.image(c);
      return;
    }
    if (/^h[1-3]$/.test(tag) && !SUBHEADING.test(classOf(c))) {
      this.heading(c);
      return;
    }
    if (/^h[1-6]$/.test(tag)) {
      this.line(SUBHEADING.test(classOf(c)) ? lineOf($, c, this.ctx.link) : blockMd($, c, this.ctx.link));
      return;
    }
    if (tag === 'figure' && !$(c).find('blockquote').length && this.figure(c)) return;
    const only = imageOnly($, c);
    if (only) {
      this.image(only, c);
      return;
    }
    const items = groupItems($, c);
    if (items && !items.some((i) => groupItems($, i))) {
      this.group(c, items);
      return;
    }
    if (this.imageRow(c)) return;
    if (['ul', 'ol', 'blockquote', 'table', 'dl', 'pre'].includes(tag)) {
      this.line(blockMd($, c, this.ctx.link));
      return;
    }
    if (tag === 'p' || isInlineOnly(c)) {
      this.line(lineOf($, c, this.ctx.link));
      return;
    }
    const isRegion = REGION.has(tag) || Boolean(c.attribs.id);
    if (!isRegion) {
      this.walk(c);
      return;
    }
    this.flush();
    this.regions.push(c.attribs.id ? slugFor(c.attribs.id) : null);
    if (!this.cta(c)) this.walk(c);
    this.flush();
    this.regions.pop();
  }

  private heading(el: Element): void {
    const text = safeText(textOf(this.$, el), 200);
    if (!text) return;
    const level = Number(tagOf(el)[1]);
    if (this.ctx.isPost && this.pending) {
      this.line(`${level === 3 ? '###' : '##'} ${text}`);
      return;
    }
    // A lower-level heading under a section's heading is a subheading inside that section.
    if (this.pending?.heading && this.pending.level !== undefined && level > this.pending.level) {
      this.line(`### ${text}`);
      return;
    }
    this.flush();
    this.pending = { heading: text, level, lines: [] };
  }

  private image(img: Element, wrapper: Element = img): boolean {
    const ref = this.imageRef(img);
    if (!ref) return false;
    const next = this.$(wrapper).nextAll().first()[0] as Element | undefined;
    const caption = next && /caption/.test(classOf(next)) ? safeText(textOf(this.$, next), 300) : '';
    if (caption && next) this.skip.add(next);
    return this.emitImage(img, ref, caption);
  }

  private emitImage(img: Element, ref: string, caption: string): boolean {
    this.flush();
    this.emit({
      type: 'image',
      identity: `image-${slugFor(img.attribs.src ?? '')}`,
      content: { url: ref, alt: safeText(img.attribs.alt ?? '', 300), ...(caption ? { caption } : {}) },
    });
    return true;
  }

  /** Emits a typed section; a heading waiting with no text of its own becomes its heading. */
  private emitUnderHeading(d: Draft): void {
    const p = this.pending;
    if (p?.heading && !p.lines.length) {
      this.pending = null;
      this.emit({ ...d, identity: undefined, content: { heading: p.heading, ...d.content } }, p.heading);
      return;
    }
    this.flush();
    this.emit(d);
  }

  /** Two or more images side by side and nothing else (a logo strip): a gallery. */
  private imageRow(el: Element): boolean {
    const kids = el.children.filter(isTag);
    if (kids.length < 2 || textOf(this.$, el)) return false;
    const imgs = kids.map((k) => (tagOf(k) === 'img' ? k : imageOnly(this.$, k)));
    if (imgs.some((i) => !i)) return false;
    return this.gallery(imgs as Element[]);
  }

  private gallery(imgs: Element[]): boolean {
    const images = imgs
      .map((img) => ({ url: this.imageRef(img), alt: safeText(img.attribs.alt ?? '', 300) }))
      .filter((i) => i.url)
      .slice(0, 48);
    if (!images.length) return false;
    this.emitUnderHeading({ type: 'gallery', content: { images } });
    return true;
  }

  private figure(fig: Element): boolean {
    const img = this.$(fig).find('img').first()[0] as Element | undefined;
    if (!img) return false;
    const ref = this.imageRef(img);
    if (!ref) return false;
    const caption = safeText(textOf(this.$, this.$(fig).find('figcaption')[0] ?? fig), 300);
    return this.emitImage(img, ref, caption);
  }

  private group(container: Element, items: Element[]): void {
    for (const c of container.children) {
      if (c === items[0]) {
        const d = groupSection(this.g, container, items);
        const p = this.pending;
        if (d.type === 'text' && p) {
          p.lines.push(String(d.content.body));
          continue;
        }
        this.emitUnderHeading(d);
      } else if (!items.includes(c as Element)) this.visit(c);
    }
  }

  private form(): void {
    // The words just above a form introduce it when they have no heading of their own, or when the
    // form and its heading share a named region (<section id="contact">); otherwise they stay text.
    if (this.pending?.heading && !this.region()) this.flush();
    const p = this.pending;
    this.pending = null;
    const body = p ? safeMarkdown(p.lines.join('\n\n'), 2000) : '';
    this.emit(
      {
        type: 'contact',
        content: {
          ...(p?.heading ? { heading: p.heading } : {}),
          ...(body ? { body } : {}),
          ...(this.contactInfo.email ? { email: this.contactInfo.email } : {}),
          ...(this.contactInfo.phone ? { phone: this.contactInfo.phone } : {}),
          showForm: true,
        },
      },
      p?.heading ?? 'contact',
    );
  }

  /** A short region with one heading and one button is a call to action. */
  private cta(el: Element): boolean {
    const $ = this.$;
    const headings = $(el).find('h1, h2, h3').toArray();
    const buttons = $(el).find(BUTTON).toArray() as Element[];
    if (headings.length !== 1 || buttons.length !== 1 || $(el).find('img, form, ul, ol, blockquote').length)
      return false;
    if (textOf($, el).length > 500) return false;
    const url = this.ctx.link(buttons[0]!.attribs.href ?? '');
    if (!url) return false;
    const body = flowBlocks($, el, this.ctx.link, new Set([headings[0]!, buttons[0]!]));
    const heading = safeText(textOf($, headings[0]!), 200);
    this.emit(
      {
        type: 'cta',
        content: {
          heading,
          ...(body.length ? { body: safeMarkdown(body.join('\n\n'), 1000) } : {}),
          buttonLabel: safeText(textOf($, buttons[0]!), 60),
          buttonUrl: url,
        },
      },
      heading,
    );
    return true;
  }
}

function headingIn($: CheerioAPI, el: Element): Element | undefined {
  const h1 = $(el)
    .find('h1')
    .toArray()
    .find((e) => textOf($, e));
  if (h1) return h1 as Element;
  // A heading drawn with classes (Bootstrap's "masthead-heading"): the innermost such element.
  return $(el)
    .find('[class*="heading"], [class*="title"], .display-1, .display-2, .display-3, .display-4, h2')
    .toArray()
    .find(
      (e) =>
        !SUBHEADING.test(classOf(e)) &&
        textOf($, e) &&
        !$(e).find('h1, h2, h3, [class*="heading"], [class*="title"]').length,
    ) as Element | undefined;
}

/** The single image an element holds when it holds nothing else (a linked image, a picture). */
function imageOnly($: CheerioAPI, el: Element): Element | null {
  if (textOf($, el)) return null;
  const imgs = $(el).find('img');
  return imgs.length === 1 ? (imgs[0] as Element) : null;
}
