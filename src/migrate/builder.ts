// The walk that rebuilds a page's body from the service's own section types: headings start text
// sections, repeated items become typed sections (groups.ts), figures keep their captions in place,
// images side by side become galleries, a form becomes a contact section, a short region with one
// heading and one button becomes a call to action. The masthead is read first (hero.ts).
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import {
  SUBHEADING,
  blockMd,
  classOf,
  flowBlocks,
  isInlineOnly,
  isTag,
  lineOf,
  safeMarkdown,
  safeText,
  tagOf,
  textOf,
} from './dom.js';
import { type Draft, type GroupCtx, buttonsIn, groupItems, groupSection } from './groups.js';
import { type ConvertCtx, imageUrl, slugFor } from './page-ctx.js';

export const BUTTON = 'a.btn, a[class*="button"], a[role="button"]';
const REGION = new Set(['section', 'article', 'aside', 'header', 'main']);
/** The most a text or post body section holds (its schema's cap). */
const TEXT_MAX = 20_000;

type Pending = { heading?: string; level?: number; lines: string[] };

export class Builder {
  sections: Draft[] = [];
  images: Array<{ url: string; alt: string }> = [];
  usedBackgrounds = new Set<string>();
  mainHeading: string | null = null;
  excerpt: string | null = null;
  private pending: Pending | null = null;
  byline: string | null = null;
  /** The opening words of each block that was too long to keep whole (the report names them). */
  shortened: string[] = [];
  skip = new Set<AnyNode>();
  private regions: Array<string | null> = [];
  private regionUsed = new Set<string>();
  private g: GroupCtx;

  constructor(
    readonly $: CheerioAPI,
    private url: URL,
    readonly ctx: ConvertCtx,
    private contactInfo: { email: string | null; phone: string | null },
  ) {
    this.g = {
      $,
      link: ctx.link,
      image: (img) => this.imageRef(img),
      background: (el) => this.background(el),
      hasBackground: (el) =>
        this.ctx.backgrounds.has(el) ||
        $(el)
          .find('*')
          .toArray()
          .some((d) => this.ctx.backgrounds.has(d)),
      postPath: ctx.postPath,
      onPreview: ctx.onPreview,
    };
  }

  imageRef(img: Element): string | null {
    const abs = imageUrl(img, this.url);
    // The brand's logo comes along as the site's logo, not as a picture on the page.
    if (!abs || abs === this.ctx.logo) return null;
    this.images.push({ url: abs, alt: safeText(img.attribs.alt ?? '', 300) });
    return this.ctx.assetRef(abs);
  }

  background(el: Element): string | null {
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
      if (!this.excerpt) this.excerpt = safeText(p.lines.find((l) => !/^[#>*-]/.test(l)) ?? '', 300) || null;
      // A long stretch of a post is kept whole, in as many body sections as it needs.
      for (const body of this.pieces([p.heading ? `## ${p.heading}` : '', ...lines].filter(Boolean)))
        this.emit({ type: 'blog_body', identity: 'body', content: { body } });
      return;
    }
    const [first = '', ...rest] = this.pieces(p.lines);
    this.emit(
      { type: 'text', content: p.heading ? { heading: p.heading, body: first } : { body: first } },
      p.heading,
    );
    for (const body of rest) this.emit({ type: 'text', content: { body } }, `${p.heading ?? 'text'}-more`);
  }

  /**
   * Lines as bodies of at most TEXT_MAX characters each, split between blocks; a single block longer
   * than that is cut, and the page says where (shortened).
   */
  private pieces(lines: readonly string[]): string[] {
    const out: string[] = [];
    let cur = '';
    for (const raw of lines) {
      let line = raw;
      if (line.length > TEXT_MAX) {
        this.shortened.push(safeText(line.slice(0, 60), 60));
        line = safeMarkdown(line, TEXT_MAX);
      }
      if (cur && cur.length + 2 + line.length > TEXT_MAX) {
        out.push(safeMarkdown(cur, TEXT_MAX));
        cur = '';
      }
      cur = cur ? `${cur}\n\n${line}` : line;
    }
    if (cur || !out.length) out.push(safeMarkdown(cur, TEXT_MAX));
    return out;
  }

  private line(md: string): void {
    if (!md.trim()) return;
    this.pending ??= { lines: [] };
    this.pending.lines.push(md);
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
    if (this.testimonial(c)) return;
    if (c.attribs.role === 'tabpanel') {
      this.tabPanel(c);
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
    // A section's own <header> (its heading and intro) opens that section rather than standing alone.
    const ownHeader = tag === 'header' && this.regions.length > 0 && !c.attribs.id;
    const isRegion = !ownHeader && (REGION.has(tag) || Boolean(c.attribs.id));
    if (!isRegion) {
      // A band drawn with plain blocks (a heading, a line, one button) is a call to action too.
      const band = $(c).find('h1, h2, h3').length === 1 ? this.ctaOf(c) : null;
      if (band) {
        this.flush();
        this.emit(band, String(band.content.heading));
      } else this.walk(c);
      return;
    }
    this.flush();
    this.regions.push(c.attribs.id ? slugFor(c.attribs.id) : null);
    if (!this.cta(c)) this.walk(c);
    this.flush();
    this.regions.pop();
  }

  /** A tab panel is a section of its own, headed by its tab's label (never merged with its neighbours). */
  private tabPanel(panel: Element): void {
    const $ = this.$;
    // Only a plain id is looked up (an id is the page's text, never a selector of its own).
    const id = /^[A-Za-z][\w:.-]{0,100}$/.test(panel.attribs.id ?? '') ? panel.attribs.id! : '';
    const by = panel.attribs['aria-labelledby'] ?? '';
    const tab =
      (/^[A-Za-z][\w:.-]{0,100}$/.test(by) ? $(`[id="${by}"]`)[0] : undefined) ??
      (id
        ? $(`[aria-controls="${id}"], [data-bs-target="#${id}"], [data-target="#${id}"], a[href="#${id}"]`)[0]
        : undefined);
    const label = tab ? safeText(textOf($, tab), 200) : '';
    this.flush();
    this.pending = { heading: label || undefined, level: 3, lines: [] };
    this.regions.push(id ? slugFor(id) : null);
    this.walk(panel);
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
    return this.emitImage(img, ref, caption || this.imageLink(img, wrapper));
  }

  /**
   * One quote in quotation marks with its speaker under it (a template's testimonial band): a
   * testimonial, whatever its classes. The speaker's photo is not carried over.
   */
  private testimonial(el: Element): boolean {
    const $ = this.$;
    const kids = el.children.filter(isTag);
    if (kids.length < 2 || kids.length > 3) return false;
    const quote = textOf($, kids[0]!);
    if (!/^["“«].{10,600}["”»]$/s.test(quote) || $(kids[0]!).find('a[href], h1, h2, h3').length) return false;
    const author = kids
      .slice(1)
      .map((k) => textOf($, k))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!author || author.length > 120 || $(el).find('a[href], h1, h2, h3, form').length) return false;
    const img = $(el).find('img')[0] as Element | undefined;
    const photo = img ? this.imageRef(img) : null;
    this.emitUnderHeading({
      type: 'testimonials',
      content: {
        items: [
          {
            quote: safeText(quote.slice(1, -1), 2000),
            author: safeText(author, 120),
            ...(photo ? { imageUrl: photo } : {}),
          },
        ],
      },
    });
    return true;
  }

  /** A linked picture (an app-store badge) keeps its link as its caption, in its own words. */
  private imageLink(img: Element, wrapper: Element): string {
    const $ = this.$;
    const a = ($(img).closest('a[href]')[0] ?? ($(wrapper).is('a[href]') ? wrapper : undefined)) as
      | Element
      | undefined;
    const alt = safeText(img.attribs.alt ?? '', 200).replace(/[[\]]/g, '');
    if (!a || !alt || alt === '...' || (a.attribs.href ?? '').trim().startsWith('#')) return '';
    const to = this.ctx.link(a.attribs.href ?? '');
    return to && alt.length + to.length + 4 <= 300 ? `[${alt}](${to})` : '';
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

  /** A short band with one heading and one button (a link standing alone) is a call to action. */
  private ctaOf(el: Element): Draft | null {
    const $ = this.$;
    // A part already read (the hero's heading and line) makes no band of its own.
    if (
      $(el)
        .find('*')
        .toArray()
        .some((x) => this.skip.has(x))
    )
      return null;
    const headings = $(el).find('h1, h2, h3').toArray();
    const buttons = buttonsIn($, el);
    if (headings.length !== 1 || buttons.length !== 1 || $(el).find('img, form, ul, ol, blockquote').length)
      return null;
    if (textOf($, el).length > 500) return null;
    const url = this.ctx.link(buttons[0]!.attribs.href ?? '');
    if (!url) return null;
    const body = flowBlocks($, el, this.ctx.link, new Set([headings[0]!, buttons[0]!]));
    const heading = safeText(textOf($, headings[0]!), 200);
    return {
      type: 'cta',
      content: {
        heading,
        ...(body.length ? { body: safeMarkdown(body.join('\n\n'), 1000) } : {}),
        buttonLabel: safeText(textOf($, buttons[0]!), 60),
        buttonUrl: url,
      },
    };
  }

  private cta(el: Element): boolean {
    const d = this.ctaOf(el);
    if (d) this.emit(d, String(d.content.heading));
    return d !== null;
  }
}

export function headingIn($: CheerioAPI, el: Element): Element | undefined {
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
