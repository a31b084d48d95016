// HTML -> sections (SPEC §4.5 migrate_site_from_url): a crawled page becomes the service's own section
// types (hero, text, image, gallery, contact) — the design is rebuilt from those, never copied.
// Scripts, booking widgets, embeds and forms are left out and turned into actionsRequired lines.
// Every text is made safe for SafeText (no tag-like text, no script-capable schemes, no controls).
import * as cheerio from 'cheerio';
import type { AnyNode } from 'domhandler';
import type { PortableSection } from '../portable/schema.js';

export type ConvertedPage = {
  path: string;
  title: string;
  seoDescription: string | null;
  siteName: string | null;
  /** The page's declared brand colour (meta theme-color), if it is a plain hex value. */
  themeColor: string | null;
  sections: Array<Omit<PortableSection, 'externalKey'>>;
  images: Array<{ url: string; alt: string }>;
  actions: string[];
};

const BOOKING =
  /calendly\.com|acuityscheduling\.com|squareup\.com\/appointments|setmore\.com|simplybook\.me|fresha\.com|booksy\.com|opentable\.com|resy\.com|youcanbook\.me|tockhq\.com|cal\.com/i;
const MAX_SECTIONS = 60;

/** Plain text safe for SafeText: whitespace collapsed, tag-like "<x" and script schemes neutralised. */
export function safeText(s: string, max: number): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .replace(/\s+/g, ' ')
      .replace(/<(?=\s*\/?\s*[a-zA-Z!?])/g, '‹')
      .replace(/\b(javascript|vbscript|data)(\s*):/gi, '$1$2∶')
      .trim()
      .slice(0, max)
      .trim()
  );
}

export function slugFor(path: string): string {
  const s = decodeURIComponent(path)
    .toLowerCase()
    .replace(/\.(html?|php|aspx?)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return s || 'home';
}

type Block = {
  heading?: string;
  level: number;
  paras: string[];
  images: Array<{ url: string; alt: string }>;
};

export function convertPage(html: string, url: URL, assetRef: (imageUrl: string) => string): ConvertedPage {
  const $ = cheerio.load(html);
  const path = url.pathname;
  const actions: string[] = [];
  const title = safeText($('title').first().text() || $('h1').first().text() || path, 200) || 'Untitled';
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
  const hasForm = $('form').length > 0;
  if (hasForm) {
    actions.push(
      `Re-create the contact form that was on ${path} (a contact section with the standard form was added).`,
    );
  }
  const mailto = ($('a[href^="mailto:"]').first().attr('href') ?? '').slice(7).split('?')[0] ?? '';

  $(
    'script, style, noscript, template, iframe, embed, object, svg, canvas, form, nav, footer, [role="navigation"]',
  ).remove();
  $('[class*="booking" i], [id*="booking" i], [data-booking]').remove();
  const root = $('main').first().length ? $('main').first() : $('body');

  const blocks: Block[] = [{ level: 9, paras: [], images: [] }];
  const cur = () => blocks[blocks.length - 1]!;
  const images: Array<{ url: string; alt: string }> = [];
  root.find('h1, h2, h3, p, li, blockquote, img').each((_, node: AnyNode) => {
    const el = $(node);
    const tag = (node as { tagName?: string }).tagName ?? '';
    if (tag === 'img') {
      const src = el.attr('src');
      if (!src) return;
      try {
        const abs = new URL(src, url);
        if (abs.protocol !== 'http:' && abs.protocol !== 'https:') return;
        abs.hash = '';
        const img = { url: abs.href, alt: safeText(el.attr('alt') ?? '', 300) };
        images.push(img);
        cur().images.push(img);
      } catch {
        // unparsable src: left out
      }
      return;
    }
    const text = safeText(el.text(), 4000);
    if (!text) return;
    if (tag === 'h1' || tag === 'h2' || tag === 'h3') {
      blocks.push({ heading: safeText(text, 200), level: Number(tag[1]), paras: [], images: [] });
    } else if (tag === 'li') {
      cur().paras.push(`- ${text}`);
    } else if (!el.parents('li, blockquote').length) {
      cur().paras.push(tag === 'blockquote' ? `> ${text}` : text);
    }
  });

  const sections: ConvertedPage['sections'] = [];
  const add = (type: PortableSection['type'], content: Record<string, unknown>) =>
    sections.push({ type, content, layout: {}, hidden: false });
  let heroDone = false;
  for (const b of blocks) {
    const paras = [...b.paras];
    const imgs = [...b.images];
    const isHero = !heroDone && b.level === 1 && b.heading !== undefined;
    if (isHero) {
      heroDone = true;
      const hero: Record<string, unknown> = { heading: b.heading };
      if (paras.length && paras[0]!.length <= 300 && !paras[0]!.startsWith('- '))
        hero.subheading = paras.shift();
      const img = imgs.shift();
      if (img) hero.imageUrl = assetRef(img.url);
      add('hero', hero);
    }
    if (paras.length) {
      const body = paras.join('\n\n').slice(0, 20_000);
      add('text', b.heading && !isHero ? { heading: b.heading, body } : { body });
    }
    if (imgs.length === 1) add('image', { url: assetRef(imgs[0]!.url), alt: imgs[0]!.alt });
    else if (imgs.length > 1) {
      add('gallery', {
        ...(b.heading && !isHero && !paras.length ? { heading: b.heading } : {}),
        images: imgs.slice(0, 48).map((i) => ({ url: assetRef(i.url), alt: i.alt })),
      });
    }
  }
  if (hasForm) {
    add('contact', {
      heading: 'Get in touch',
      ...(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(mailto) ? { email: mailto } : {}),
      showForm: true,
    });
  }
  return {
    path,
    title,
    seoDescription,
    siteName,
    themeColor,
    sections: sections.slice(0, MAX_SECTIONS),
    images,
    actions,
  };
}
