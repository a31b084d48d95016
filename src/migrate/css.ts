// Background images of the elements a migration converts (R-MIG-3: "headers and heroes with their …
// background image (inline styles and the site's stylesheets)"). Stylesheets and style attributes are
// parsed with css-tree, a real CSS parser: url() values are read from the AST (quoted, unquoted,
// inside gradients and shorthands), never with a regular expression over the text. Selectors are
// matched with cheerio's own engine; rules apply in source order and a style attribute wins, which is
// the cascade for the single property we read.
import type { CheerioAPI } from 'cheerio';
import * as csstree from 'css-tree';
import type { AnyNode } from 'domhandler';

export type Sheet = { css: string; base: URL };

/** States a visitor does not see at rest: a background set only on :hover is not the element's. */
const STATEFUL = /:(hover|focus|focus-within|focus-visible|active|visited|checked|target)\b/i;
const MAX_RULES = 20_000;

/** The first url() of a background / background-image declaration value, resolved against `base`. */
function urlOfValue(value: csstree.CssNode, base: URL): string | null {
  let found: string | null = null;
  csstree.walk(value, {
    visit: 'Url',
    enter(node: csstree.Url) {
      if (found !== null) return;
      const raw = node.value.trim();
      if (!raw || raw.startsWith('data:')) return;
      try {
        const u = new URL(raw, base);
        if (u.protocol === 'http:' || u.protocol === 'https:') {
          u.hash = '';
          found = u.href;
        }
      } catch {
        // not an address: ignored
      }
    },
  });
  return found;
}

function backgroundOf(block: csstree.CssNode, base: URL): string | null | undefined {
  let out: string | null | undefined;
  csstree.walk(block, {
    visit: 'Declaration',
    enter(decl: csstree.Declaration) {
      const prop = decl.property.toLowerCase();
      if (prop !== 'background' && prop !== 'background-image') return;
      const url = urlOfValue(decl.value, base);
      // `background: none` / a plain colour in a later declaration clears an earlier image.
      out = url ?? (prop === 'background-image' || out === undefined ? null : out);
    },
  });
  return out;
}

function parse(css: string, context?: 'declarationList'): csstree.CssNode | null {
  try {
    return csstree.parse(css, {
      parseValue: true,
      parseCustomProperty: false,
      parseAtrulePrelude: false,
      ...(context ? { context } : {}),
    });
  } catch {
    return null; // css-tree recovers from most errors itself; anything else means no backgrounds
  }
}

/**
 * Every element of the document that has a background image, from the given stylesheets (in document
 * order) and then the elements' own style attributes. Returns element -> absolute image URL.
 */
export function backgroundImages(
  $: CheerioAPI,
  sheets: readonly Sheet[],
  pageUrl: URL,
): Map<AnyNode, string> {
  const out = new Map<AnyNode, string>();
  let rules = 0;
  for (const sheet of sheets) {
    const ast = parse(sheet.css);
    if (!ast) continue;
    csstree.walk(ast, {
      visit: 'Rule',
      enter(rule: csstree.Rule) {
        if (++rules > MAX_RULES) return;
        const bg = backgroundOf(rule.block, sheet.base);
        if (bg === undefined) return;
        const selectors =
          rule.prelude.type === 'SelectorList'
            ? rule.prelude.children.toArray().map((s) => csstree.generate(s))
            : [csstree.generate(rule.prelude)];
        for (const raw of selectors) {
          if (STATEFUL.test(raw)) continue;
          // A background on ::before / ::after paints the element's own box.
          const selector = raw.replace(/::?(before|after)\b/gi, '').trim();
          if (!selector) continue;
          let matched: AnyNode[];
          try {
            matched = $(selector).toArray();
          } catch {
            continue; // a selector cheerio cannot evaluate: it cannot match what we convert
          }
          for (const el of matched) {
            if (bg === null) out.delete(el);
            else out.set(el, bg);
          }
        }
      },
    });
  }
  $('[style]').each((_, el) => {
    const ast = parse($(el).attr('style') ?? '', 'declarationList');
    if (!ast) return;
    const bg = backgroundOf(ast, pageUrl);
    if (bg === null) out.delete(el);
    else if (bg !== undefined) out.set(el, bg);
  });
  return out;
}
