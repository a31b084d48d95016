// Which test files share their worker's database, and the one they share on PostgreSQL.
// Test files run with `isolate: false` (vitest.config.ts): a worker keeps the modules of the files before
// it. Most files still get a database of their own (test/setup-database.ts). The tool files
// (test/tools/<tool>.test.ts, on test/tools/kit.ts) make a fresh workspace per test and touch no
// global sweep, so they share one database per worker instead, and with it test/helpers/db.ts's open
// connection, for as long as tool files follow one another.
export const workerDatabase = { url: '' };

/** Whether the test file at `testPath` shares its worker's database (a tool file). */
export function sharesWorkerDatabase(testPath: string | undefined): boolean {
  return /[\\/]test[\\/]tools[\\/][^\\/]+\.test\.ts$/.test(testPath ?? '');
}
