// The owner pages' one table: a header row of named columns, one row a record, each cell labelled for
// phone widths (layout.tsx `table.rt` turns rows into stacked cards there). An action column has a
// header only screen readers hear and no visible label on a phone. Everything in a cell is escaped by
// hono/jsx; a visitor's text stays text.
import type { Child } from 'hono/jsx';

export type Column<R> = {
  label: string;
  cell: (row: R) => Child;
  /** An action column (a link, a button, a form): its header is for screen readers only. */
  action?: boolean;
  class?: string;
  /** Extra attributes of the cell (`data-…` that tests and scripts find). */
  attrs?: (row: R) => Record<string, string>;
};

export function DataTable<R>(p: {
  columns: Column<R>[];
  rows: R[];
  id?: string;
  /** Attributes of a row, e.g. `{ 'data-member': id }`. */
  rowAttrs?: (row: R) => Record<string, string>;
  /** Shown instead of the table when there is no row; without it an empty table is shown. */
  empty?: Child;
  /** Cells hold `Wrap`ped text and never split a word of ordinary length (`WRAP_CSS`). */
  wrap?: boolean;
}) {
  if (p.rows.length === 0 && p.empty !== undefined) return <p class="muted">{p.empty}</p>;
  return (
    <table class={p.wrap ? 'rt wrap' : 'rt'} id={p.id}>
      <thead>
        <tr>
          {p.columns.map((col) => (
            <th scope="col">{col.action ? <span class="sr">{col.label}</span> : col.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row) => (
          <tr {...(p.rowAttrs?.(row) ?? {})}>
            {p.columns.map((col) => (
              <td
                data-label={col.action ? undefined : col.label}
                class={col.class}
                {...(col.attrs?.(row) ?? {})}
              >
                {col.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A token longer than this may break anywhere (a link); shorter ones never break inside. */
const LONG_TOKEN = 24;
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/**
 * A visitor's text in a table cell, wrapping where a reader expects: between words; an email address
 * also after its "@" and before a dot, plus sign or hyphen; a long token (a link, a double name) after
 * a slash, hyphen or dot, and a piece still too long for any column anywhere (class `long`, with
 * `WRAP_CSS`). A word of ordinary length is never split.
 */
export function Wrap(p: { text: string }) {
  return (
    <>
      {p.text.split(/(\s+)/).map((t) => {
        if (ADDRESS.test(t)) {
          return t.split(/(?=[.+-])|(?<=@)/).flatMap((part, i) => (i === 0 ? [part] : [<wbr />, part]));
        }
        if (t.length <= LONG_TOKEN) return t;
        return t
          .split(/(?<=[/\-.?&=_])/)
          .flatMap((part, i) => [
            ...(i === 0 ? [] : [<wbr />]),
            part.length > LONG_TOKEN ? <span class="long">{part}</span> : part,
          ]);
      })}
    </>
  );
}

/** For tables whose cells use `Wrap`: a cell never splits a word to make its column narrower. */
export const WRAP_CSS = `
table.wrap td{overflow-wrap:break-word}table.wrap .long{overflow-wrap:anywhere}
table.wrap td:last-child a{white-space:nowrap}
`;
