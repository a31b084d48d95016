import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['**/node_modules/**', ...(hasChromium ? [] : ['test/**/*.browser.test.ts'])],
    // A migrated PGlite image built once per run; each file's in-memory database starts from it.
    globalSetup: ['test/global-setup.ts'],
    // On PostgreSQL, each file gets a database of its own, copied from the run's migrated template.
    setupFiles: ['test/setup-database.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // 2 cores here and in CI: two files at a time keeps PGlite start-up from thrashing.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
