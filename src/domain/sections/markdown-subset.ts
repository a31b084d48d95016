// The Markdown subset section text is written in (what the site renders as markup), and the check that
// refuses anything outside it at write time, naming the construct, so nothing is ever published raw.
// One markdown-it configuration serves both: the renderer (src/web/render/markdown.ts) builds on
// subsetParser(); the check parses with every construct switched on and names the ones the subset
// leaves out.
import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Parser, StateCore } from 'markdown-it';

/** The subset's parser: CommonMark plus tables and fenced code; raw HTML, indented code, references off. */
export function subsetParser(): Parser {
  const md = MarkdownIt('commonmark', { html: false, xhtmlOut: false, breaks: true, linkify: false });
  md.enable(['table']);
  md.disable(['code', 'html_block', 'reference', 'html_inline']);
  return md;
}

/** Everything markdown-it knows, so what the subset leaves out is seen as what it is. */
const full = MarkdownIt('commonmark', { html: true, linkify: false }).enable(['table', 'strikethrough']);

/** Token types outside the subset, as a writer would name them. */
const OUTSIDE: Record<string, string> = {
  html_block: 'raw HTML',
  html_inline: 'raw HTML',
  code_block: 'an indented code block (a line starting with four spaces after a blank line; use a ``` fence)',
  s_open: '~~strikethrough~~',
};
/** Block constructs a one-line (inline) field cannot hold. */
const BLOCK_ONLY: Record<string, string> = { table_open: 'a table', fence: 'a fenced code block' };

/** The first construct of `text` outside the subset, named for the writer, or null when all is in it. */
export function outsideSubset(text: string, format: 'markdown' | 'inline'): string | null {
  if (!/[`~|<\n\t]|^ {4}|\]:/.test(text)) return null; // none of the constructs below can occur
  const env: StateCore['env'] = {};
  const tokens = full.parse(text, env);
  if (env.references && Object.keys(env.references as object).length)
    return 'a reference-style link definition ("[name]: address"; write links inline as [label](address))';
  for (const t of tokens) {
    const named = OUTSIDE[t.type] ?? (format === 'inline' ? BLOCK_ONLY[t.type] : undefined);
    if (named) return named;
    for (const c of t.children ?? []) if (OUTSIDE[c.type]) return OUTSIDE[c.type]!;
  }
  return null;
}

/** The subset as agents are told it (tool descriptions). */
export const SUBSET_DESCRIPTION =
  'Markdown subset: paragraphs, line breaks, ## to #### headings, **bold**, *italic*, `code`, - and 1. lists, > quotes, --- rules, tables (| a | b | with a |---| row), fenced code blocks (```), [links](…) to http(s), mailto:, tel: or /paths, ![images](asset_…) from the library. Refused (invalid_input naming it): HTML, indented code blocks, reference-style links, ~~strikethrough~~; a one-line field holds no table or code block.';
