// The Developers tables in Chromium at 1280 px and 390 px: no word is broken mid-way ("Re/vo/ke",
// "api_to/ken", "get_site_ove/rview"), and the page fits its viewport. Screenshots go to
// $SCREENSHOT_DIR when it is set, for a person to look at.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { activity } from '../../src/db/schema.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

/** Every word of the tables' cells, buttons and summaries that the browser laid out over two lines. */
async function brokenWords(page: Page, scope = 'table'): Promise<string[]> {
  return page.evaluate((scope) => {
    const out: string[] = [];
    const els = document.querySelectorAll(`${scope} td, ${scope} th, ${scope} summary, ${scope} button`);
    for (const el of els) {
      if ((el as HTMLElement).offsetWidth <= 1) continue; // visually hidden labels
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.parentElement?.checkVisibility()) continue; // inside a closed <details>
        const text = n.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index!);
          r.setEnd(n, m.index! + m[0].length);
          const lines = new Set(
            [...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)),
          );
          if (lines.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  }, scope);
}

it('the Developers tables break no word mid-way at 1280 px or 390 px', async () => {
  const demo = await suite.s.seed();
  const now = Date.now();
  await suite.s.sg.deps.services.db.insert(activity).values(
    ['get_site_overview', 'prepare_send_document', 'confirm_pending_action'].map((tool, i) => ({
      companyId: demo.companyId,
      websiteId: demo.websites.main,
      connectionId: demo.connections.all,
      tool,
      outcome: i === 1 ? 'denied' : 'allowed',
      code: i === 1 ? 'plan_revision_changed' : null,
      summary: `Called ${tool} on the main website and read what it needed`,
      createdAt: new Date(now - i * 60_000),
    })),
  );
  for (const width of WIDTHS) {
    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner, width);
    await page.goto(`${suite.s.url}/settings/advanced/developers`);
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) await page.screenshot({ path: path.join(dir, `developers-${width}.png`), fullPage: true });
    expect(await overflowOf(page), `at ${width}px`).toBeLessThanOrEqual(0);
    expect(await brokenWords(page), `at ${width}px`).toEqual([]);
    await page.context().close();
  }
}, 120_000);
