// The connect page in Chromium at 390 px and 1280 px with pending OAuth sign-ins whose client ids
// are long (a metadata-document URL, a random id): the page fits its viewport. Screenshots go to
// $SCREENSHOT_DIR when it is set, for a person to look at.
import path from 'node:path';
import { expect, it } from 'vitest';
import { recordPendingSignIn } from '../../src/auth/oauth/binding.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

it('long client ids wrap inside their card at 390 px and 1280 px', async () => {
  const demo = await suite.s.seed();
  const db = suite.s.sg.deps.services.db;
  const issuer = 'http://idp.example';
  const url = `https://assistant.example/.well-known/oauth-client/${'metadata-document-'.repeat(6)}end`;
  const random = `c${'0123456789abcdef'.repeat(5)}`;
  const code = await recordPendingSignIn(
    db,
    { issuer, subject: demo.users.owner.id, clientId: url },
    ['site:read'],
    new Date(),
  );
  await recordPendingSignIn(
    db,
    { issuer, subject: demo.users.owner.id, clientId: random },
    ['site:read'],
    new Date(),
    { clientName: 'Named Assistant' },
  );
  for (const width of WIDTHS) {
    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner, width);
    for (const [name, at] of [
      ['connect', '/dashboard/connect'],
      ['connect-code', `/dashboard/connect?code=${code}`],
    ] as const) {
      await page.goto(`${suite.s.url}${at}`);
      const dir = process.env.SCREENSHOT_DIR;
      if (dir) await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
      expect(await overflowOf(page), `${at} at ${width}px`).toBeLessThanOrEqual(0);
    }
    await page.context().close();
  }
}, 120_000);
