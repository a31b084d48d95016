import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // 2 cores here and in CI: two files at a time keeps PGlite start-up from thrashing.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
