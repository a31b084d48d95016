// The Developers page in a real browser (Chromium via playwright-core): sign in, create a connection,
// copy the token once with the copy button, revoke it; the revoked token then gets 401.
import { expect, it } from 'vitest';
import { browserSuite, submitLogin } from '../helpers/browser.js';
import { postMcp } from '../helpers/server.js';

const suite = browserSuite();

const mcpStatus = async (token: string) => (await postMcp(suite.s.mcpUrl, token)).status;

it('creates a connection, copies the token once, revokes it; the token then gets 401', async () => {
  const context = await suite.browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.s.url });
  const page = await context.newPage();
  await page.goto(`${suite.s.url}/settings/advanced/developers`);
  await submitLogin(page, suite.s.demo.users.owner);
  await page.waitForURL('**/settings/advanced/developers');

  await page.fill('input[name=name]', 'Browser bot');
  await page.check('input[name=scopes][value=publish]');
  await page.click('text=Create connection');
  const token = (await page.textContent('#token-value'))!.trim();
  expect(token).toMatch(/^sg_live_[0-9A-Za-z]{32}$/);
  expect(new URL(page.url()).pathname).toBe('/settings/advanced/developers');
  await page.click('text=Copy token');
  await page.waitForSelector('text=Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  expect(await mcpStatus(token)).toBe(200);

  // Shown once: a reload neither shows the token again nor creates a second connection.
  await page.reload();
  expect(await page.content()).not.toContain(token);
  expect(await page.locator('#token-value').count()).toBe(0);
  const row = page.locator('#connections tr', { hasText: 'Browser bot' });
  expect(await row.count()).toBe(1);
  await expect(row.textContent()).resolves.toContain('publish');
  // Revoking asks first, then says it worked.
  await row.locator('summary', { hasText: 'Revoke' }).click();
  await expect(row.locator('details.revoke p').textContent()).resolves.toContain('stops working at once');
  await row.locator('button', { hasText: 'Yes, revoke' }).click();
  await page.waitForURL('**/settings/advanced/developers?revoked=connection');
  await expect(page.locator('#message').textContent()).resolves.toMatch(/^Revoked\./);
  await expect(page.locator('#connections tr', { hasText: 'Browser bot' }).textContent()).resolves.toContain(
    'Revoked',
  );
  expect(await mcpStatus(token)).toBe(401);
  await context.close();
});
