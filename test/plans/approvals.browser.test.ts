// The owner's approval rail in a real browser (Chromium via playwright-core): sign in as the demo
// owner, open the approval page of a prepared publish, see the change list, approve; the agent
// confirms and the published snapshot carries the edit. An editor cannot approve; a form without its
// CSRF token is refused.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { websites } from '../../src/db/schema.js';
import { browserSuite, submitLogin } from '../helpers/browser.js';
import { planRow } from './rail.js';
import { liveSnapshot } from '../helpers/live.js';

const suite = browserSuite({ seed: false });

async function signInAt(url: string, who: { email: string; password: string }): Promise<Page> {
  const page = await (await suite.browser.newContext()).newPage();
  await page.goto(url);
  expect(new URL(page.url()).pathname).toBe('/login');
  await submitLogin(page, who);
  return page;
}

it('the owner signs in, sees the change list, approves; the agent confirms and the edit is live', async () => {
  const demo = await suite.s.seed();
  const prepared = await suite.s.call(demo.tokens.all, 'prepare_publish');
  const planId = prepared.data!.planId as string;
  const page = await signInAt(prepared.data!.approveUrl as string, demo.users.owner);
  expect(new URL(page.url()).pathname).toBe(`/approvals/${planId}`);
  await expect(page.locator('h1').textContent()).resolves.toBe('Publish the draft of Harbor Bakery');
  const changes = await page.locator('#changes li').allTextContents();
  expect(changes).toEqual(['Page "Home" (/home): text section edited.']);
  await Promise.all([page.waitForURL(/done=approved/), page.click('#approve')]);
  await expect(page.locator('#status').textContent()).resolves.toContain('Approved');

  const done = await suite.s.call(demo.tokens.all, 'confirm_pending_action', { planId });
  expect(done.ok).toBe(true);
  const snapshot = await liveSnapshot(suite.s.sg.deps.services.db, demo.websites.main);
  const home = snapshot!.pages.find((p) => p.id === demo.pages.home)!;
  expect(home.sections.find((x) => x.id === demo.sections.intro)!.content).toMatchObject({
    heading: 'Welcome to Harbor Bakery',
  });
  expect((await suite.s.call(demo.tokens.all, 'list_draft_changes')).data!.changes).toEqual([]);
  const live = await fetch(`${suite.s.url}/sites/${demo.websites.main}/`);
  if (live.status !== 404) expect(await live.text()).toContain('Welcome to Harbor Bakery');
});

it('a signed-in editor sees no Approve button and a posted approval is refused', async () => {
  const demo = await suite.s.seed();
  const planId = (await suite.s.call(demo.tokens.all, 'prepare_publish')).data!.planId as string;
  const page = await signInAt(`${suite.s.url}/approvals/${planId}`, demo.users.editor);
  expect(await page.locator('#approve').count()).toBe(0);
  await expect(page.locator('body').textContent()).resolves.toContain('Only the owner');
  // Post the approval anyway, with the editor's own valid CSRF token (from the sign-out form).
  const status = await page.evaluate(async (id) => {
    const csrf = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
    const res = await fetch(`/approvals/${id}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    return res.status;
  }, planId);
  expect(status).toBe(403);
  expect((await planRow(suite.s, planId))!.status).toBe('pending');
});

it('an approval form without its CSRF token is refused', async () => {
  const demo = await suite.s.seed();
  const planId = (await suite.s.call(demo.tokens.all, 'prepare_publish')).data!.planId as string;
  const page = await signInAt(`${suite.s.url}/approvals/${planId}`, demo.users.owner);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('form[action$="/approve"] input[name=_csrf]')) el.remove();
  });
  const [response] = await Promise.all([page.waitForResponse(/\/approve$/), page.click('#approve')]);
  expect(response.status()).toBe(403);
  expect((await planRow(suite.s, planId))!.status).toBe('pending');
});
