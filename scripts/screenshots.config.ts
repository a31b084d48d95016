// `npm run screenshots`: scripts/screenshots.shots.ts (the owner pages) and the MCP Apps as a host
// renders them (test/web/mcp-apps.browser.test.ts), with the tests' global set-up, into
// docs/screenshots/ unless SCREENSHOTS_DIR says otherwise.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/screenshots.shots.ts', 'test/web/mcp-apps.browser.test.ts'],
    env: { SCREENSHOTS_DIR: process.env.SCREENSHOTS_DIR ?? 'docs/screenshots' },
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
