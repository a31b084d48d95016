// HTML -> sections (R-MIG-1, R-MIG-3): a crawled page is rebuilt, as a visitor
// sees it, from the service's own section types — a masthead becomes a hero (heading, subheading,
// button, background image from inline style or stylesheet), headings start text sections, repeated
// items become features / testimonials / pricing / FAQ (groups.ts), figures keep their captions in
// place, a form becomes a contact section, the footer's text and links are kept. Hidden content is
// not expanded. Scripts, booking widgets, embeds and forms are left out and turned into
// actionsRequired lines. Each section carries an identity (its region's id, its heading) from which
// the site builder derives a stable externalKey.
import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { Builder } from './builder.js';
import { flowBlocks, removeHidden, safeMarkdown, safeText, settleCounters, marksAsWritten } from './dom.js';
import { outerBlocks } from './furniture.js';
import { SECTIONS_PER_PAGE, fitSections } from './fit.js';
import { hero } from './hero.js';
import type { Draft } from './groups.js';
import { type ConvertCtx, type ConvertedPage, imageUrl, standaloneCtx } from './page-ctx.js';
import { plural } from '../kernel/plural.js';
import { MARKDOWN_FIELDS } from '../domain/sections/types.js';

export { safeText } from './dom.js';
export { type ConvertCtx, type ConvertedPage, mdUrl, slugFor, standaloneCtx } from './page-ctx.js';

const BOOKING =
  /calendly\.com|acuityscheduling\.com|squareup\.com\/appointments|setmore\.com|simplybook\.me|fresha\.com|booksy\.com|opentable\.com|resy\.com|youcanbook\.me|tockhq\.com|cal\.com/i;
const IN_POPUP = 'in hidden content (a pop-up) that was not carried over.';
const NOT_KEPT_BACKGROUND =
  'background of a part of the page that is not carried over (a pop-up, the header bar, the footer).';
const NOT_KEPT = 'in a part of the page that is not carried over (a post preview, a widget, the header bar).';
/** A copyright notice and nothing else: "Copyright © Tidewater Notes 2026. All rights reserved." */
const COPYRIGHT =
  /^(?:copyright\s*)?(?:©|\(c\))\s*(?:copyright\s*)?[^.·|]{0,80}?\d{4}[^.·|]{0,60}?\.?(?:\s*all rights reserved\.?)?$|^copyright\b[^.·|]{0,80}\d{4}\.?$/i;

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
  // Every picture the page shows, to say which of them the new page does not (skippedAssets).
  const pictures = () =>
    new Set(
      $('img')
        .toArray()
        .map((img) => imageUrl(img as Element, url))
        .filter((u): u is string => u !== null),
    );
  const shown = pictures();
  // The site's furniture (an information bar, a ticker, a sidebar) is kept on the home page only; a
  // page's footer is handled below.
  if (ctx.furniture?.size)
    for (const b of outerBlocks($))
      if (ctx.furniture.has(b.key) && !$(b.el).is('footer, [role="contentinfo"]')) $(b.el).remove();
  settleCounters($);
  const popups = removeHidden($);
  const notHidden = pictures();
  if (popups.length) {
    actions.push(
      `${plural(popups.length, 'pop-up')} on ${path} ${popups.length === 1 ? 'was' : 'were'} not carried over (${popups.slice(0, 6).join('; ')}): hidden content is not expanded. Add what you need from them as sections.`,
    );
  }
  // A search box has nothing to carry over: the new site has no search.
  $('form')
    .filter((_, f) => $(f).find('textarea, input[type="email" i]').length === 0)
    .filter(
      (_, f) =>
        $(f).is('[role="search"]') ||
        $(f).find('input[type="search" i], input[name="q"], input[name="s"]').length > 0 ||
        /search/i.test(
          $(f)
            .find('input')
            .toArray()
            .map(
              (x) =>
                `${$(x).attr('name') ?? ''} ${$(x).attr('placeholder') ?? ''} ${$(x).attr('aria-label') ?? ''}`,
            )
            .join(' '),
        ),
    )
    .remove();
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
  // Its copyright notice is not kept: the service's own footer shows the site's name with ©.
  const footerBlocks = (footers.length ? flowBlocks($, footers.at(-1) as Element, ctx.link) : [])
    .map((block) =>
      block
        .split('\n')
        .map((line) =>
          line
            .split(/\s+[·|]\s+/)
            .filter((part) => !COPYRIGHT.test(part.trim()))
            .join(' · '),
        )
        .filter((line) => line.trim())
        .join('\n')
        .trim(),
    )
    .filter(Boolean);
  for (const f of footers) $(f).remove();
  // The site's header bar (logo and menu) is rebuilt by the service's own header, like the menu.
  $('nav, [role="navigation"], .navbar').each((_, nav) => {
    const bar = $(nav).parent().closest('header, [class*="header"], [class*="topbar"]');
    if (bar.length && !bar.find('h1, h2').length && !ctx.backgrounds.has(bar[0]!)) bar.remove();
  });
  $('nav, [role="navigation"], .navbar').remove();

  const body = ($('body')[0] ?? $.root()[0]) as Element;
  hero(b);
  b.walk(body);
  b.flush();
  if (footerBlocks.length) {
    b.emit({
      type: 'text',
      identity: 'footer',
      content: { body: safeMarkdown(footerBlocks.join('\n\n'), 20_000) },
    });
  }
  for (const words of b.shortened)
    actions.push(
      `A block of ${path} longer than 20,000 characters was shortened to fit a section: the one starting "${words}…". Add the rest by hand if you need it.`,
    );
  const cap = Math.min(ctx.sectionCap ?? SECTIONS_PER_PAGE, SECTIONS_PER_PAGE);
  const fitted = fitSections(b.sections, cap);
  if (fitted.dropped)
    actions.push(
      `${plural(fitted.dropped, 'section')} at the end of ${path} ${fitted.dropped === 1 ? 'was' : 'were'} left out: it may hold at most ${cap} in this import. Add what you need from them by hand, or split the page.`,
    );
  const kept = new Set(b.images.map((i) => i.url));
  const unusedImages = [...shown]
    .filter((u) => !kept.has(u))
    .map((u) => ({ url: u, reason: notHidden.has(u) ? NOT_KEPT : IN_POPUP }));
  const unused = [...ctx.backgrounds].filter(([, bgUrl]) => !b.usedBackgrounds.has(bgUrl));
  const unusedBackgrounds = unused
    .filter(([el]) => $(el).closest('html').length > 0)
    .map(([, bgUrl]) => bgUrl);
  // A background painted on a part that was taken out (a pop-up, the header bar, the footer).
  for (const [el, bgUrl] of unused)
    if (!$(el).closest('html').length && !unusedBackgrounds.includes(bgUrl))
      unusedImages.push({ url: bgUrl, reason: NOT_KEPT_BACKGROUND });
  return {
    path,
    docTitle,
    mainHeading: b.mainHeading,
    seoDescription,
    siteName,
    themeColor,
    sections: fitted.sections.map(withMarksAsWritten),
    images: b.images,
    excerpt: b.excerpt,
    actions,
    unusedBackgrounds: [...new Set(unusedBackgrounds)],
    unusedImages,
  };
}

/** A section whose Markdown fields read as written (marksAsWritten), whichever path built them. */
function withMarksAsWritten(section: Draft): Draft {
  let content: unknown = section.content;
  for (const [path, form] of Object.entries(MARKDOWN_FIELDS[section.type]))
    content = mapAt(content, path.split('.'), (text) => marksAsWritten(text, form));
  return { ...section, content: content as Draft['content'] };
}

function mapAt(value: unknown, keys: readonly string[], fn: (text: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapAt(v, keys, fn));
  if (!keys.length) return typeof value === 'string' ? fn(value) : value;
  if (!value || typeof value !== 'object') return value;
  const [key, ...rest] = keys as [string, ...string[]];
  const record = value as Record<string, unknown>;
  return key in record ? { ...record, [key]: mapAt(record[key], rest, fn) } : record;
}
