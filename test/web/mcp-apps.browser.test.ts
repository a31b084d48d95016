import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AppHost, showApp, startAppHost } from '../helpers/app-host.js';
import { WIRES, appsClient } from '../helpers/apps.js';
import { browserSuite } from '../helpers/browser.js';

const suite = browserSuite();
let host: AppHost;
beforeAll(async () => {
  host = await startAppHost();
});
afterAll(() => host?.close());
const OUT = path.join(tmpdir(), 'sitegate-app-shots');
mkdirSync(OUT, { recursive: true });

it.each(WIRES)('smoke %s', async (wire) => {
  const { s, browser } = suite;
  const c = await appsClient(s.mcpUrl, s.demo.tokens.all, wire, true);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => console.log('console:', m.text()));
  const shown = await showApp(page, host, c, 'get_page', { pageId: s.demo.pages.home });
  await shown.app.locator('iframe').first().waitFor();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: path.join(OUT, `smoke-${wire}.png`), fullPage: true });
  console.log(await shown.app.locator('body').innerText());
  await page.close();
  await c.close();
});
