// What every operator command shares, kept light (no database code) so `--help` stays fast:
// exit codes, the action wrapper, and table or JSON output.
export class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** Wraps a command action: prints an ExitError's message and sets the exit code. */
export const action =
  <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
  async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exitCode = err instanceof ExitError ? err.code : 1;
    }
  };

/** Prints rows as an aligned table, or JSON with --json. */
export function print(rows: unknown, json?: boolean): void {
  if (json || !Array.isArray(rows)) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const cols = Object.keys(rows[0] as object);
  const cell = (v: unknown) =>
    v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v ?? '-');
  const table = [cols, ...rows.map((r) => cols.map((c) => cell((r as Record<string, unknown>)[c])))];
  const widths = cols.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table)
    process.stdout.write(
      `${r
        .map((v, i) => v.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
}
