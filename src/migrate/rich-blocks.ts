// Tables and code as the Markdown subset keeps them (R-MIG-3): a data table becomes a Markdown table
// (its header row, its cells with their links and emphasis), a <pre> block a fenced code block with
// its language and its lines exactly as written. A table used for layout (one column, or cells that
// hold whole blocks) reads as the text it holds.
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';

/** A cell's Markdown: one line, its pipes escaped so they stay in the cell. */
type Line = (el: Element) => string;

/** A data table as Markdown table lines, or null when it is laid out rather than tabulated. */
export function tableMd($: CheerioAPI, table: Element, line: Line): string | null {
  const rows = ($(table).find('tr').toArray() as Element[]).filter(
    (tr) => $(tr).closest('table')[0] === table,
  );
  if (!rows.length || $(table).find('table').length) return null;
  const grid = rows.map((tr) =>
    (
      tr.children.filter((c) => c.type === 'tag' && /^t[dh]$/i.test((c as Element).tagName)) as Element[]
    ).flatMap((cell) => {
      const text = line(cell)
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      const span = Math.min(20, Math.max(1, Number(cell.attribs.colspan) || 1));
      return [text, ...Array<string>(span - 1).fill('')];
    }),
  );
  const width = Math.max(...grid.map((r) => r.length));
  if (width < 2 || grid.some((r) => r.join('').length > 2000)) return null;
  const row = (cells: string[]) =>
    `| ${[...cells, ...Array<string>(width - cells.length).fill('')].map((c) => c || ' ').join(' | ')} |`;
  const [head, ...body] = grid;
  return [row(head!), `|${' --- |'.repeat(width)}`, ...body.map(row)].join('\n');
}

const LANGUAGE = /(?:^|\s)(?:language|lang|highlight)-([A-Za-z0-9_+#-]{1,30})(?:\s|$)/;

/** A <pre> block as a fenced code block: its language (from its classes or its wrapper's), its lines as written. */
export function codeMd($: CheerioAPI, pre: Element): string {
  const carriers = [
    pre,
    ...($(pre).find('code').toArray() as Element[]),
    ...($(pre).parents().slice(0, 2).toArray() as Element[]),
  ];
  const lang = carriers.map((e) => LANGUAGE.exec(e.attribs.class ?? '')?.[1]).find(Boolean) ?? '';
  const code = $(pre)
    .text()
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '');
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${code}\n${fence}`;
}
