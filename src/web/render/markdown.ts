// Markdown text of sections and blog posts to HTML: one CommonMark parser (markdown-it) for the live
// site, both previews and the approval page. The subset (src/domain/sections/markdown-subset.ts, stated
// to agents in the tool descriptions): paragraphs, line breaks, headings (## to ####; a single # is
// shown as ##, the page has its own <h1>), **bold** / __bold__, *italic* / _italic_, `code`, "- " and
// "1. " lists, "> " quotes, --- rules, tables, fenced code blocks, [links](…) to http(s), mailto:, tel:
// or the site's own paths, and ![images](asset_…) from the site's library. Raw HTML, indented code
// blocks, reference-style links and strikethrough are refused when written; autolinked bare URLs stay
// text. markdown-it's renderer escapes all text (a code block's too), so nothing a writer types can
// become markup or run as code. A single line break stays a line break (owners write addresses and
// opening times line by line). A table scrolls sideways inside its own box on a narrow screen.
import type { StateCore, Token } from 'markdown-it';
import { subsetParser } from '../../domain/sections/markdown-subset.js';
import { ASSET_ID, isSafeLinkTarget } from '../../domain/sections/types.js';
import { escapeHtml } from '../../kernel/html.js';

/** Turns a stored URL into an href/src: asset ids to /assets/<id>, site paths under the site's base. */
export type UrlResolver = (url: string) => string | null;

/**
 * `assetBase` is where library images are fetched from: '' (this service's pages) or the service's
 * origin, for a rendering shown in another document (an MCP App's frame).
 */
export function makeResolver(basePath: string, assetBase = ''): UrlResolver {
  return (url) => {
    if (!isSafeLinkTarget(url)) return null;
    if (ASSET_ID.test(url)) return `${assetBase}/assets/${url}`;
    if (url.startsWith('/')) return `${basePath}${url}`;
    return url;
  };
}

/** Changed words to mark while rendering (the approval page's side-by-side diff). */
export type Marks = { tag: 'ins' | 'del'; changed: ReadonlySet<number>; next: number };
type Env = { resolve: UrlResolver; marks?: Marks };

const md = subsetParser();
// markdown-it keeps a link whose target fails this as literal text.
md.validateLink = (url) => isSafeLinkTarget(url);

/** Resolves link and image targets against the page, and keeps headings between h2 and h4. */
function sitePolicy(state: StateCore): void {
  const env = state.env as Env;
  for (const block of state.tokens) {
    // A column's alignment is a class, so the page carries no style attribute.
    const align = /^text-align:(left|center|right)$/.exec(String(block.attrGet('style') ?? ''));
    if (align) {
      block.attrs = null;
      block.attrSet('class', `al-${align[1]}`);
    }
    if (block.type === 'heading_open' || block.type === 'heading_close') {
      block.tag = `h${Math.min(4, Math.max(2, Number(block.tag.slice(1))))}`;
    }
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let dropClose = false;
    for (const t of block.children) {
      if (t.type === 'link_open') {
        const href = env.resolve(String(t.attrGet('href') ?? ''));
        dropClose = href === null;
        if (href === null) continue;
        t.attrSet('href', href);
      } else if (t.type === 'link_close' && dropClose) {
        dropClose = false;
        continue;
      } else if (t.type === 'image') {
        const src = String(t.attrGet('src') ?? '');
        const url = ASSET_ID.test(src) ? env.resolve(src) : null;
        if (url === null) {
          // Only the site's own library images are shown; anything else reads as its description.
          const text = new state.Token('text', '', 0);
          text.content = (t.children ?? []).map((c) => c.content).join('');
          out.push(text);
          continue;
        }
        t.attrSet('src', url);
        t.attrSet('loading', 'lazy');
      }
      out.push(t);
    }
    block.children = out;
  }
}
md.core.ruler.push('site_policy', sitePolicy);

const WORDS = /(\s+)/;

/** Text with the changed words of `env.marks` wrapped; runs of changed words share one tag. */
function markedText(text: string, marks: Marks): string {
  let out = '';
  let open = false;
  let gap = ''; // spaces after an open run: inside it if the run goes on, outside if it ends
  for (const piece of text.split(WORDS)) {
    if (!piece) continue;
    const changed = marks.changed.has(marks.next++);
    if (!/\S/.test(piece)) {
      if (open) gap += piece;
      else out += escapeHtml(piece);
      continue;
    }
    if (changed && !open) out += `<${marks.tag}>`;
    if (!changed && open) out += `</${marks.tag}>`;
    open = changed;
    out += escapeHtml(gap) + escapeHtml(piece);
    gap = '';
  }
  return open ? `${out}</${marks.tag}>${escapeHtml(gap)}` : out;
}

const rules = md.renderer.rules;
const marksOf = (env: unknown) => (env as Env | undefined)?.marks;
rules.text = (tokens, idx, _o, env) => {
  const marks = marksOf(env);
  return marks ? markedText(tokens[idx]!.content, marks) : escapeHtml(tokens[idx]!.content);
};
rules.code_inline = (tokens, idx, _o, env) => {
  const text = tokens[idx]!.content;
  const marks = marksOf(env);
  return `<code>${marks ? markedText(text, marks) : escapeHtml(text)}</code>`;
};
// A fenced block's first info word becomes its language class (escaped, as markdown-it does).
rules.fence = (tokens, idx, _o, env) => {
  const t = tokens[idx]!;
  const lang = md.utils.unescapeAll(t.info).trim().split(/\s+/)[0]?.slice(0, 40);
  const marks = marksOf(env);
  const code = marks ? markedText(t.content, marks) : escapeHtml(t.content);
  return `<pre><code${lang ? ` class="language-${escapeHtml(lang)}"` : ''}>${code}</code></pre>\n`;
};
rules.table_open = () => '<div class="table-scroll"><table>\n';
rules.table_close = () => '</table></div>\n';
const image = rules.image!;
rules.image = (tokens, idx, o, env, self) => {
  const html = image(tokens, idx, o, env, self);
  const marks = marksOf(env);
  if (!marks) return html;
  return marks.changed.has(marks.next++) ? `<${marks.tag}>${html}</${marks.tag}>` : html;
};

/** A block of Markdown to safe HTML. */
export function markdown(text: string, resolve: UrlResolver, marks?: Marks): string {
  return md.render(text, { resolve, marks } satisfies Env).trimEnd();
}

/** One line of inline Markdown (a subheading, a caption, a quote) to safe HTML: no blocks. */
export function inline(text: string, resolve: UrlResolver, marks?: Marks): string {
  return md.renderInline(text, { resolve, marks } satisfies Env);
}

/**
 * The words of a text as the renderer will mark them, in render order: each word or space with the
 * blocks and inline formatting it sits in, so that a word made bold, moved into a list or given
 * another link target counts as changed. `markdown()`/`inline()` with `marks` count the same pieces.
 */
export function renderedWords(text: string, as: 'markdown' | 'inline'): string[] {
  const env: Env = { resolve: makeResolver('') };
  const tokens = as === 'markdown' ? md.parse(text, env) : md.parseInline(text, env);
  const out: string[] = [];
  const blocks: string[] = [];
  for (const b of tokens) {
    if (b.nesting === 1) blocks.push(b.tag);
    if (b.nesting === -1) blocks.pop();
    if (b.type === 'fence') {
      for (const piece of b.content.split(WORDS)) if (piece) out.push(`${blocks.join('>')}|pre|${piece}`);
      continue;
    }
    if (b.type !== 'inline' || !b.children) continue;
    const where = blocks.join('>');
    const inlineCtx: string[] = [];
    for (const t of b.children) {
      if (t.nesting === 1) inlineCtx.push(t.type === 'link_open' ? `a(${t.attrGet('href')})` : t.tag);
      else if (t.nesting === -1) inlineCtx.pop();
      const ctx = `${where}|${inlineCtx.join('>')}`;
      if (t.type === 'text' || t.type === 'code_inline') {
        for (const piece of t.content.split(WORDS)) {
          if (piece) out.push(`${ctx}|${t.type === 'code_inline' ? 'code:' : ''}${piece}`);
        }
      } else if (t.type === 'image') {
        out.push(`${ctx}|img(${t.attrGet('src')})`);
      }
    }
  }
  return out;
}
