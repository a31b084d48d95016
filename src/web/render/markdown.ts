// The small Markdown subset of section text (SPEC §2 sections; issue: "escape first, then format"):
// paragraphs, line breaks, ## / ### headings, "- " and "1. " lists, "> " quotes, **bold**, *italic* / _italic_ and
// [label](url) links whose url passes isSafeUrl. Everything else is text, HTML-escaped before any tag
// is added, so nothing a writer types can become markup or run as code.
import { MD_LINK, isSafeUrl } from '../../domain/sections/types.js';
import { escapeHtml } from '../../kernel/html.js';

/** Turns a stored URL into an href/src: asset ids to /assets/<id>, site paths under the site's base. */
export type UrlResolver = (url: string) => string | null;

export function makeResolver(basePath: string): UrlResolver {
  return (url) => {
    if (!isSafeUrl(url)) return null;
    if (/^asset_/.test(url)) return `/assets/${url}`;
    if (url.startsWith('/')) return `${basePath}${url}`;
    return url;
  };
}

// Placeholders use U+0000, which section text can never contain (SafeText refuses control characters).
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the placeholder marker on purpose
const HOLE = /\u0000(\d+)\u0000/g;

function emphasis(escaped: string): string {
  return (
    escaped
      .replace(/\*\*([^*\n]+?)\*\*/g, '<strong>$1</strong>')
      // As in CommonMark, a delimiter next to a space does not open or close emphasis ("2 * 3 * 4").
      .replace(/(^|[^\w*])\*([^*\s](?:[^*\n]*?[^*\s])?)\*(?!\w)/g, '$1<em>$2</em>')
      .replace(/(^|[^\w])_([^_\s](?:[^_\n]*?[^_\s])?)_(?!\w)/g, '$1<em>$2</em>')
  );
}

/** One line of inline Markdown to safe HTML. */
export function inline(text: string, resolve: UrlResolver): string {
  const links: string[] = [];
  const withHoles = text.replace(MD_LINK, (_m, label: string, url: string) => {
    const href = resolve(url);
    const inner = emphasis(escapeHtml(label));
    links.push(href ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner);
    return `\u0000${links.length - 1}\u0000`;
  });
  return emphasis(escapeHtml(withHoles)).replace(HOLE, (_m, i: string) => links[Number(i)] ?? '');
}

/** A block of Markdown to safe HTML (paragraphs, headings, lists). */
export function markdown(text: string, resolve: UrlResolver): string {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (!lines.length) continue;
    const heading = /^(#{2,3})\s+(.+)$/.exec(lines[0]!);
    if (heading && lines.length === 1) {
      const tag = heading[1]!.length === 2 ? 'h3' : 'h4';
      out.push(`<${tag}>${inline(heading[2]!, resolve)}</${tag}>`);
    } else if (lines.every((l) => /^\s*>/.test(l))) {
      const quoted = lines.map((l) => inline(l.replace(/^\s*>\s?/, ''), resolve));
      out.push(`<blockquote><p>${quoted.join('<br>')}</p></blockquote>`);
    } else if (lines.every((l) => /^\s*\d{1,3}[.)]\s+/.test(l))) {
      const items = lines.map((l) => `<li>${inline(l.replace(/^\s*\d{1,3}[.)]\s+/, ''), resolve)}</li>`);
      out.push(`<ol>${items.join('')}</ol>`);
    } else if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
      const items = lines.map((l) => `<li>${inline(l.replace(/^\s*[-*]\s+/, ''), resolve)}</li>`);
      out.push(`<ul>${items.join('')}</ul>`);
    } else {
      out.push(`<p>${lines.map((l) => inline(l, resolve)).join('<br>')}</p>`);
    }
  }
  return out.join('\n');
}
