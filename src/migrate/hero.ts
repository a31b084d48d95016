// The page's masthead (or, without one, its first h1) becomes the hero: heading, subheading, button,
// background image from inline style or stylesheet; a post's byline opens its body.
import type { AnyNode, Element } from 'domhandler';
import {
  SUBHEADING,
  classOf,
  flowBlocks,
  isTag,
  lineOf,
  safeMarkdown,
  safeText,
  tagOf,
  textOf,
} from './dom.js';
import { BUTTON, type Builder, headingIn } from './builder.js';
import { buttonsIn } from './groups.js';

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
const POSTED = /^(?:posted|published|written)\b/i;

/** Whether an element holds links and nothing else that reads (a row of buttons). */
function linksOnly($: Builder['$'], el: Element): boolean {
  const all = textOf($, el).replace(/\s+/g, '');
  const links = $(el)
    .find('a[href]')
    .toArray()
    .map((a) => textOf($, a).replace(/\s+/g, ''))
    .join('');
  return all.length > 0 && all === links;
}

/** The masthead (or, without one, the page's first h1) becomes the hero. */
export function hero(b: Builder): void {
  const $ = b.$;
  const h1 = $('h1').first()[0] as Element | undefined;
  // The outermost header band that holds a heading; else the region around the first h1 when it
  // is painted with a background image (whatever its class names).
  const masthead =
    ($('body *')
      .toArray()
      .find(
        (el) => isMasthead(el) && !$(el).parents().toArray().some(isMasthead) && headingIn($, el as Element),
      ) as Element | undefined) ??
    ((h1 &&
      $(h1)
        .parents()
        .toArray()
        .find((el) => b.ctx.backgrounds.has(el) && tagOf(el) !== 'body' && tagOf(el) !== 'html')) as
      | Element
      | undefined);
  const heading = masthead ? headingIn($, masthead)! : h1;
  if (!heading) return;
  b.mainHeading = safeText(textOf($, h1 ?? heading), 200) || null;
  const content: Record<string, unknown> = { heading: safeText(textOf($, heading), 200) };
  const used: AnyNode[] = [heading];
  let sub: Element | undefined;
  if (masthead) {
    sub = $(masthead)
      .find('[class*="subheading"], [class*="subtitle"], .lead, [class*="tagline"]')
      .toArray()
      .find((e) => e !== heading && !$(e).find(heading).length && textOf($, e)) as Element | undefined;
    if (!sub && !b.ctx.isPost)
      sub = $(masthead)
        .find('p, h2, h3, h4')
        .toArray()
        .find(
          (e) => e !== heading && !$(e).find(heading).length && textOf($, e) && textOf($, e).length <= 300,
        ) as Element | undefined;
    const meta = $(masthead).find(BYLINE).first()[0];
    if (meta && b.ctx.isPost) {
      b.byline = lineOf($, meta, b.ctx.link).replace(/\n/g, ' ');
      used.push(meta);
    }
  } else {
    const next = $(heading).nextAll().first()[0] as Element | undefined;
    if (
      next &&
      b.ctx.isPost &&
      ($(next).is(BYLINE) || $(next).find('time').length || POSTED.test(textOf($, next)))
    ) {
      // A post's byline ("By Bea Carver · 14 March 2026") opens its body, in italics.
      b.byline = lineOf($, next, b.ctx.link).replace(/\n/g, ' ');
      used.push(next);
    } else if (
      next &&
      (SUBHEADING.test(classOf(next)) || (tagOf(next) === 'p' && textOf($, next).length <= 300))
    )
      sub = next;
  }
  if (sub) {
    content.subheading = safeMarkdown(lineOf($, sub, b.ctx.link).replace(/\n/g, ' '), 300);
    used.push(sub);
    if (b.ctx.isPost) b.excerpt = safeText(textOf($, sub), 300);
  }
  // Without a masthead, a row of links right under the heading and its line is the hero's buttons.
  const row =
    masthead || b.ctx.isPost
      ? undefined
      : ($(sub ?? heading)
          .nextAll()
          .first()[0] as Element | undefined);
  const buttons = masthead
    ? [...$(masthead).find(BUTTON).toArray(), ...buttonsIn($, masthead)]
    : row && linksOnly($, row)
      ? buttonsIn($, row)
      : [];
  const button = buttons.find((a) => b.ctx.link((a as Element).attribs.href ?? '')) as Element | undefined;
  if (button) {
    content.buttonLabel = safeText(textOf($, button), 60);
    content.buttonUrl = b.ctx.link(button.attribs.href ?? '');
    used.push(button);
    // The other links of that row stay where they are, as text.
    if (!masthead) $(button).remove();
  }
  const bg = masthead ? b.background(masthead) : null;
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
    const ref = onlyImage ? b.imageRef(img) : null;
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
  b.emit({ type: 'hero', identity: 'hero', content });
  if (masthead) {
    b.skip.add(masthead);
    // What the hero holds is not repeated below it (a button beside a second one shares their line).
    for (const u of used) $(u).remove();
    const rest = flowBlocks($, masthead, b.ctx.link, new Set(used));
    if (rest.length)
      b.emit({
        type: 'text',
        identity: 'hero/more',
        content: { body: safeMarkdown(rest.join('\n\n'), 20_000) },
      });
  } else for (const u of used) b.skip.add(u);
}
