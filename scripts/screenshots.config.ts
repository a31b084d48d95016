// `npm run screenshots`: the one file scripts/screenshots.shots.ts, with the tests' global set-up.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/screenshots.shots.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
