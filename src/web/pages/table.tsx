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
}) {
  if (p.rows.length === 0 && p.empty !== undefined) return <p class="muted">{p.empty}</p>;
  return (
    <table class="rt" id={p.id}>
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
