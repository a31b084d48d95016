// Looking at owner pages the way an owner does, in Chromium: sign in, check the page fits
// the viewport (no horizontal overflow) and has no serious or critical axe-core violation. Shared by
// the browser tests and `npm run screenshots`.
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { submitLogin } from './browser.js';

const require = createRequire(import.meta.url);
export const AXE_PATH = require.resolve('axe-core/axe.min.js');

export const WIDTHS = [390, 1280] as const;

/** A new browser context at `width`, signed in as `who` through the real login form. */
export async function signedIn(
  browser: Browser,
  baseUrl: string,
  who: { email: string; password: string },
  width = 1280,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await submitLogin(page, who);
  return page;
}

/** How many CSS pixels the page is wider than its viewport (0 when it fits). */
export async function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

export type AxeFinding = { id: string; impact: string; help: string; targets: string[] };

/** axe-core's serious and critical violations on the current page. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    const r = await axe.run();
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n: { target: string[] }) => n.target.join(' ')),
      }));
  });
}
