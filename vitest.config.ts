import { existsSync } from 'node:fs';
import { type TestProjectInlineConfiguration, defineConfig } from 'vitest/config';

// Browser tests (*.browser.test.ts) drive Debian's Chromium through playwright-core. Without it they are
// skipped with a note, so `npm install && npm test` passes on a fresh machine; CI sets
// SITEGATE_REQUIRE_BROWSER=1, which turns the skip into a failure (.ci/run).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromium);
if (!hasChromium) {
  const how = `Chromium was not found at ${chromium}. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.`;
  if (process.env.SITEGATE_REQUIRE_BROWSER === '1') throw new Error(`Browser tests must run here. ${how}`);
  console.warn(`\n[sitegate] Skipping the browser tests (test/**/*.browser.test.ts). ${how}\n`);
}

/** Files that need a fresh worker of their own (none today). */
const ISOLATED: string[] = [];
/**
 * The slow tier: files that drive a real browser or real `sitegate` processes (crashes, restarts,
 * stalls, signals, backups, the CLI), and the migration corpora. `npm test` leaves them out to stay
 * within a few minutes; `npm run test:all` and CI (.ci/run, on PGlite and on PostgreSQL) run them.
 */
const SLOW = [
  'test/**/*.browser.test.ts',
  'test/reliability/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/ops/{backup,shutdown,shutdown-drain,schema-refusal,pg-backup}.test.ts',
  'test/attack/{demo-tokens-at-rest,restore-paths}.test.ts',
  'test/migrate/{fidelity,generalise}.test.ts',
];

// What both projects below share. Spelled out rather than inherited (`extends: true`), because an
// inherited `include` would be merged with a project's own rather than replaced by it.
const shared = {
  exclude: ['**/node_modules/**', ...(hasChromium ? [] : ['test/**/*.browser.test.ts'])],
  // A migrated PGlite image built once per run; each file's in-memory database starts from it.
  globalSetup: ['test/global-setup.ts'],
  // On PostgreSQL, each file gets a database of its own, copied from the run's migrated template.
  setupFiles: ['test/setup-database.ts', 'test/setup-count.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} satisfies TestProjectInlineConfiguration['test'];

export default defineConfig({
  test: {
    // 2 cores here and in CI: two files at a time keeps PGlite start-up from thrashing. Set here only,
    // for every project, so that --maxWorkers on the command line still decides: `npm test` runs three
    // (package.json), as its files wait on their servers and sockets as much as they compute.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      // Every other file shares its worker's modules with the files before it (loading the service's
      // modules was most of a file's time) but not its database: test/setup-database.ts gives each file
      // its own and closes it after (the tool files, test/tools/, share one per worker: see there).
      // What else a file changes (environment variables, the working folder) it puts back; a file that
      // cannot goes in ISOLATED. CI runs the files in a shuffled order (.ci/run), so a file that leans on
      // another's leftovers fails there, not by chance. The tool files are in this project, not one of
      // their own: a worker serves one project, and in a shuffled order files of two projects alternate,
      // each change of project costing a worker that loads every module again.
      {
        test: {
          ...shared,
          name: 'quick',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...shared.exclude, ...ISOLATED, ...SLOW],
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'slow',
          include: SLOW,
          exclude: [...shared.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      ...(ISOLATED.length
        ? [{ test: { ...shared, name: 'isolated', include: [...ISOLATED] } }]
        : []),
    ],
  },
});
