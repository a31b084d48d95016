// Reading a crawled document as a visitor sees it (R-MIG-3): what is hidden is left out (modals,
// [hidden], aria-hidden, display:none, Bootstrap's d-none), and text becomes the small Markdown subset
// sections hold, with links kept as Markdown links (rewritten by the caller to the new site's paths).
// Every line is made safe for SafeText (no tag-like text, no script-capable schemes, no controls).
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { isSafeLinkTarget } from '../domain/sections/types.js';
import { codeMd, tableMd } from './rich-blocks.js';

/**
 * Plain text safe for SafeText: whitespace collapsed, tag-like "<x" and script schemes neutralised, no
 * "![" (an image).
 */
export function safeText(s: string, max: number): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .replace(/\s+/g, ' ')
      .replace(/<(?=\s*\/?\s*[a-zA-Z!?])/g, '‹')
      .replace(/\b(javascript|vbscript|data)(\s*):/gi, '$1$2∶')
      // "!" right before a link reads as an image, which text may hold only from the library.
      .replace(/!\[/g, '! [')
      .trim()
      .slice(0, max)
      .trim()
  );
}

/**
 * A line of a fenced code block made safe while keeping its indentation: controls out, tag-like "<x"
 * and script schemes neutralised as everywhere (no text may ever hold markup), spaces kept.
 */
function safeCodeLine(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .replace(/\t/g, '    ')
      .replace(/<(?=\s*\/?\s*[a-zA-Z!?])/g, '‹')
      .replace(/\b(javascript|vbscript|data)(\s*):/gi, '$1$2∶')
      .replace(/!\[/g, '! [')
      .trimEnd()
  );
}

/** Where a line of Markdown sits: a fence's opening or closing line, inside a fenced block, or text. */
type LineKind = 'open' | 'close' | 'code' | 'text';

/**
 * Each line of Markdown mapped by where it sits: fenced blocks open with `fence` (backticks or tildes
 * by default; null for one line of inline Markdown, which has none).
 */
function mapLines(
  s: string,
  fn: (line: string, kind: LineKind) => string,
  fence0: RegExp | null = /^(`{3,}|~{3,})/,
): string {
  let fence: string | null = null;
  return s
    .split('\n')
    .map((l) => {
      const mark = fence0?.exec(l.trim())?.[1];
      if (fence) {
        const closes =
          mark && mark[0] === fence[0] && mark.length >= fence.length && !l.trim().slice(mark.length).trim();
        if (closes) fence = null;
        return fn(l, closes ? 'close' : 'code');
      }
      if (mark) fence = mark;
      return fn(l, mark ? 'open' : 'text');
    })
    .join('\n');
}

/** Markdown made safe line by line (line breaks kept), then capped at a paragraph or line boundary. */
export function safeMarkdown(s: string, max: number): string {
  const text = mapLines(s, (l, kind) =>
    kind === 'code' ? safeCodeLine(l) : kind === 'close' ? l.trim() : safeText(l, max),
  )
    .replace(/\n{3,}/g, '\n\n')
    // A "<" at the end of one line and a letter at the start of the next still read as a tag.
    .replace(/<(?=\s*\/?\s*[a-zA-Z!?])/g, '‹')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const at = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('\n'));
  return (at > max / 2 ? cut.slice(0, at) : cut).trim();
}

export const isTag = (n: AnyNode): n is Element =>
  n.type === 'tag' || n.type === 'script' || n.type === 'style';
export const tagOf = (n: AnyNode): string => (isTag(n) ? n.tagName.toLowerCase() : '');
export const classOf = (n: AnyNode): string => (isTag(n) ? (n.attribs.class ?? '') : '');

/** Bootstrap's responsive display classes: `d-none d-lg-block` is visible on a desktop. */
const SHOWN_AT_SOME_WIDTH =
  /\bd-(?:sm|md|lg|xl|xxl)-(?:block|flex|inline|inline-block|inline-flex|grid|table)\b/;

/**
 * Removes what a visitor does not see at rest. Returns the pop-ups (modals, dialogs) that held text,
 * by their heading, so the report can say which ones were not carried over.
 */
export function removeHidden($: CheerioAPI): string[] {
  const popups: string[] = [];
  $('.modal, [role="dialog"], dialog').each((_, el) => {
    const e = $(el);
    if (e.is('dialog[open]') || !e.text().trim()) return;
    popups.push(safeText(e.find('h1, h2, h3, h4, .modal-title').first().text() || e.text(), 80));
  });
  $('.modal, [role="dialog"], dialog:not([open])').remove();
  // A tab panel is hidden until its tab is clicked: a visitor reads it, so it stays.
  $('[hidden]:not([role="tabpanel"]), [aria-hidden="true"], template, .visually-hidden, .sr-only').remove();
  $('[style]').each((_, el) => {
    const style = ($(el).attr('style') ?? '').replace(/\s+/g, '').toLowerCase();
    if (/(^|;)display:none|(^|;)visibility:hidden/.test(style) && $(el).attr('role') !== 'tabpanel')
      $(el).remove();
  });
  $('.d-none').each((_, el) => {
    if (!SHOWN_AT_SOME_WIDTH.test(classOf(el))) $(el).remove();
  });
  // A heading's permalink ("¶", "#") is a control that shows on hover, not a word of the heading.
  $(
    'h1 a[href^="#"], h2 a[href^="#"], h3 a[href^="#"], h4 a[href^="#"], h5 a[href^="#"], h6 a[href^="#"]',
  ).each((_, a) => {
    if (!/[\p{L}\p{N}]/u.test($(a).text())) $(a).remove();
  });
  return popups;
}

/**
 * A counter a script animates shows "0" in the page and the number it counts up to in a data
 * attribute (data-count, data-target, data-purecounter-end …): the visitor reads that number.
 */
export function settleCounters($: CheerioAPI): void {
  $(
    '[data-count], [data-target], [data-to], [data-value], [data-number], [data-purecounter-end], [data-countup]',
  )
    .add(
      $('*').filter((_, el) =>
        Object.keys((el as Element).attribs ?? {}).some((k) => /^data-.*(count|end)/.test(k)),
      ),
    )
    .each((_, el) => {
      const e = el as Element;
      if (e.children.some(isTag) || !/^\s*0+\s*$/.test($(e).text())) return;
      const value = Object.entries(e.attribs)
        .filter(([k, v]) => k.startsWith('data-') && /^\d[\d.,]*$/.test(v.trim()))
        .sort(
          ([a], [b]) =>
            Number(/(end|target|count|to|value)$/.test(b)) - Number(/(end|target|count|to|value)$/.test(a)),
        )[0];
      if (value) $(e).text(value[1].trim());
    });
}

/** Turns an href into a link target for section text, or null for "no link" (dead, script, mail). */
export type LinkFn = (href: string) => string | null;

const SKIP_INLINE = new Set([
  'img',
  'svg',
  'picture',
  'video',
  'audio',
  'input',
  'button',
  'select',
  'textarea',
]);

/** A label for a link that shows only an icon: its accessible name, else the host it points to. */
function iconLabel($: CheerioAPI, el: Element): string {
  const named =
    el.attribs['aria-label'] ?? el.attribs.title ?? $(el).find('img[alt]').first().attr('alt') ?? '';
  if (named.trim()) return named.trim();
  try {
    return new URL(el.attribs.href ?? '').hostname;
  } catch {
    return '';
  }
}

function wrap(inner: string, mark: string): string {
  const t = inner.trim();
  if (!t) return inner;
  const lead = inner.startsWith(' ') ? ' ' : '';
  const trail = inner.endsWith(' ') ? ' ' : '';
  return `${lead}${mark}${t}${mark}${trail}`;
}

/** A mailto: or tel: link as a safe Markdown link target (address only, no query), or null. */
export function contactLink(href: string): string | null {
  const h = href.trim();
  let to: string;
  try {
    to = /^mailto:/i.test(h)
      ? `mailto:${decodeURIComponent(h.slice(7).split('?')[0]!).trim()}`
      : `tel:${decodeURIComponent(h.slice(4)).replace(/[\s/]/g, '')}`;
  } catch {
    return null;
  }
  return isSafeLinkTarget(to) ? to : null;
}

/**
 * A page's text as Markdown that shows it as written: a backslash before punctuation (or at the end,
 * before what follows) is escaped, and brackets never start a link, an image or a reference
 * definition ("[x]: y" at a line's start), nor end one ("](").
 */
function literal(text: string): string {
  return text
    .replace(/\\(?=[!-/:-@[-`{-~]|$)/g, '\\\\')
    .replace(/\[/g, '\\[')
    .replace(/\]\(/g, ']\\(');
}

/** Inline content as one Markdown line (or a few, for <br>). */
function inlineMd($: CheerioAPI, nodes: readonly AnyNode[], link: LinkFn, inLink = false): string {
  let out = '';
  let prev: AnyNode | null = null;
  for (const n of nodes) {
    if (n.type === 'text') {
      out += literal((n as unknown as { data: string }).data.replace(/\s+/g, ' '));
      prev = n;
      continue;
    }
    if (!isTag(n)) continue;
    const piece = inlineOf($, n, link, inLink);
    // Two elements side by side with nothing between ("<span>1450</span><span>Homes</span>") are
    // drawn apart by their style: their words are kept apart.
    if (prev && isTag(prev) && /[\p{L}\p{N}\])*]$/u.test(out) && /^[\p{L}\p{N}[*]/u.test(piece)) out += ' ';
    if (piece) prev = n;
    out += piece;
  }
  return out;
}

/** One inline element as Markdown. */
function inlineOf($: CheerioAPI, n: Element, link: LinkFn, inLink: boolean): string {
  const tag = tagOf(n);
  if (tag === 'br') return '\n';
  if (SKIP_INLINE.has(tag) || tag === 'script' || tag === 'style') return '';
  if (tag === 'a' && !inLink) {
    const href = n.attribs.href ?? '';
    let label = inlineMd($, n.children, link, true).replace(/\s+/g, ' ').trim();
    const mail = /^(mailto):([^?]*)/i.exec(href.trim());
    const phone = /^tel:/i.test(href.trim());
    const target = mail || phone ? contactLink(href) : link(href);
    // An icon-only link is kept only where it goes somewhere: its name alone would read as text.
    if (!label && target) label = iconLabel($, n);
    if (!label) return '';
    if (target) return `[${label.replace(/\\?[[\]]/g, '')}](${target})`;
    if (mail?.[2] && !label.includes(decodeURIComponent(mail[2])))
      return `${label} (${decodeURIComponent(mail[2])})`;
    return label;
  }
  if (tag === 'code' || tag === 'kbd' || tag === 'samp') {
    // Inline code keeps its backticks (a longer run when the code holds one).
    const code = textOf($, n).replace(/\s+/g, ' ').trim();
    if (!code) return '';
    const tick = '`'.repeat(Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
    return tick.length > 1 || code.startsWith('`') ? `${tick} ${code} ${tick}` : `\`${code}\``;
  }
  if (tag === 'strong' || tag === 'b') return wrap(inlineMd($, n.children, link, inLink), '**');
  if (tag === 'em' || (tag === 'i' && !/\bfa[srbl]?\b|\bbi\b|icon/.test(classOf(n))))
    return wrap(inlineMd($, n.children, link, inLink), '*');
  return inlineMd($, n.children, link, inLink);
}

/** Visible text of an element, whitespace collapsed (no Markdown). */
export function textOf($: CheerioAPI, el: AnyNode): string {
  const parts: string[] = [];
  const visit = (n: AnyNode) => {
    if (n.type === 'text') parts.push((n as unknown as { data: string }).data);
    else if (isTag(n) && tagOf(n) !== 'script' && tagOf(n) !== 'style') {
      const block = tagOf(n) === 'br' || BLOCK_TAGS.has(tagOf(n));
      if (block) parts.push(' ');
      for (const c of n.children) visit(c);
      if (block) parts.push(' ');
    }
  };
  visit(el);
  void $;
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Inline Markdown of an element, lines trimmed, empty lines dropped. */
export function lineOf($: CheerioAPI, el: AnyNode, link: LinkFn): string {
  return inlineMd($, isTag(el) ? el.children : [el], link)
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'pre',
  'form',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'nav',
  'address',
  'fieldset',
  'details',
  'summary',
  'picture',
]);

/** True when the element holds no block-level element: it reads as one paragraph. */
export function isInlineOnly(el: Element): boolean {
  return !el.children.some(
    (c) => isTag(c) && (BLOCK_TAGS.has(tagOf(c)) || tagOf(c) === 'img' || !isInlineOnly(c)),
  );
}

/** A list, blockquote, table or paragraph-like element as Markdown lines. */
export function blockMd($: CheerioAPI, el: Element, link: LinkFn): string {
  const tag = tagOf(el);
  if (tag === 'ul' || tag === 'ol') {
    const items = $(el).children('li').toArray();
    return items
      .map((li, i) => {
        const text = lineOf($, li, link).replace(/\n/g, ' ');
        return text ? `${tag === 'ol' ? `${i + 1}.` : '-'} ${text}` : '';
      })
      .filter(Boolean)
      .join('\n');
  }
  if (tag === 'blockquote') {
    const parts = $(el).children('p').length
      ? $(el)
          .children('p, footer, cite')
          .toArray()
          .map((p) => lineOf($, p, link))
      : [lineOf($, el, link)];
    return parts
      .filter(Boolean)
      .flatMap((p) => p.split('\n'))
      .map((l) => `> ${l}`)
      .join('\n');
  }
  if (tag === 'table') {
    const table = tableMd($, el, (cell) => lineOf($, cell, link));
    if (table !== null) return table;
    return $(el)
      .find('tr')
      .toArray()
      .map((tr) =>
        $(tr)
          .children('td, th')
          .toArray()
          .map((c) => lineOf($, c, link).replace(/\n/g, ' '))
          .filter(Boolean)
          .join(' · '),
      )
      .filter(Boolean)
      .map((r) => `- ${r}`)
      .join('\n');
  }
  if (tag === 'dl') {
    return $(el)
      .children('dt, dd')
      .toArray()
      .map((c) => (tagOf(c) === 'dt' ? `**${lineOf($, c, link)}**` : lineOf($, c, link)))
      .filter((l) => l && l !== '****')
      .join('\n');
  }
  if (tag === 'pre') return codeMd($, el);
  if (/^h[4-6]$/.test(tag)) {
    const t = lineOf($, el, link).replace(/\n/g, ' ');
    return t ? `### ${t}` : '';
  }
  return lineOf($, el, link);
}

const HEADING = /^h[1-6]$/;
/** A heading tag used for a line under a title (Bootstrap's "subheading", "post-subtitle"). */
export const SUBHEADING = /sub-?heading|subtitle|tagline|(?:^|\s)lead(?:\s|$)/i;

/**
 * Everything under an element as Markdown blocks (paragraphs, lists, quotes; headings as "### "),
 * skipping the given nodes (a card's title, a hero's heading) and images.
 */
export function flowBlocks(
  $: CheerioAPI,
  el: Element,
  link: LinkFn,
  skip: ReadonlySet<AnyNode> = new Set(),
): string[] {
  const out: string[] = [];
  let run: AnyNode[] = [];
  const flushRun = () => {
    const line = inlineMd($, run, link)
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join('\n');
    if (line) out.push(line);
    run = [];
  };
  const visit = (node: Element) => {
    for (const c of node.children) {
      if (skip.has(c)) continue;
      if (!isTag(c)) {
        if (c.type === 'text') run.push(c);
        continue;
      }
      const tag = tagOf(c);
      if (!BLOCK_TAGS.has(tag) && !(tag === 'img') && isInlineOnly(c)) {
        run.push(c);
        continue;
      }
      flushRun();
      if (tag === 'img' || tag === 'picture' || tag === 'form' || tag === 'nav') continue;
      if (HEADING.test(tag)) {
        const t = lineOf($, c, link).replace(/\n/g, ' ');
        if (t) out.push(SUBHEADING.test(classOf(c)) ? t : `### ${t}`);
      } else if (['ul', 'ol', 'blockquote', 'table', 'dl', 'pre'].includes(tag)) {
        const md = blockMd($, c, link);
        if (md) out.push(md);
      } else if (isInlineOnly(c)) {
        const l = lineOf($, c, link);
        if (l) out.push(l);
      } else visit(c);
    }
    flushRun();
  };
  visit(el);
  return out;
}

export { DATE } from './dates.js';

/**
 * A Markdown value whose text reads as written however it was built: tildes in a row are escaped
 * (they would read as ~~strikethrough~~, which the site's Markdown refuses; not inside a code span or a
 * link's address), and so is a bracket that opens a line without opening a link (it would read as a
 * reference definition, "[x]: y", which the site's Markdown refuses too). The code blocks the
 * converter writes (backtick fences) are left alone; an `inline` value has none.
 */
export function marksAsWritten(markdown: string, form: 'markdown' | 'inline'): string {
  return mapLines(
    markdown,
    (l, kind) =>
      kind === 'text'
        ? l
            .replace(/(`+)[^`]*?\1|\]\([^)\s]*\)|~{2,}/g, (m) =>
              m.startsWith('~') ? '\\~'.repeat(m.length) : m,
            )
            .replace(/^(\s{0,3}(?:>\s?)*)\[(?![^\]\n]*\]\()/, '$1\\[')
        : l,
    form === 'markdown' ? /^(`{3,})/ : null,
  );
}
