import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // A migrated PGlite image built once per run; each file's in-memory database starts from it.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // 2 cores here and in CI: two files at a time keeps PGlite start-up from thrashing.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
