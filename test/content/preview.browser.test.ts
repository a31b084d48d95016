// A real Chromium (Debian's, via playwright-core) signs in as the demo owner, opens the editor preview
// and the published page of the demo site, and checks what a visitor sees — including that no script
// runs and the draft edit is only in the preview.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { browserSuite, submitLogin } from '../helpers/browser.js';

const suite = browserSuite();

it('shows the owner the draft in the editor and a visitor the published page', async () => {
  const d = suite.s.demo;
  const edit = await suite.s.call(d.tokens.default, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: 'Pumpkin bread is here', subheading: 'Only in *October*, see [our story](/about).' },
  });
  expect(edit.ok).toBe(true);

  const owner = await suite.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await owner.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${suite.s.url}/editor/${d.websites.main}`);
  // Not signed in: the login form, then back to the preview.
  await submitLogin(page, d.users.owner);
  await page.waitForURL(`**/editor/${d.websites.main}`);
  await expect.poll(() => page.locator('h1').textContent()).toBe('Pumpkin bread is here');
  expect(await page.locator('.draft-bar').isVisible()).toBe(true);
  expect(await page.locator('.lead em').textContent()).toBe('October');
  await page
    .screenshot({ path: path.join(tmpdir(), 'sitegate-editor-preview.png'), fullPage: true })
    .catch(() => {});
  await page.locator('.lead a').click();
  await page.waitForURL(`**/editor/${d.websites.main}/about`);
  expect(await page.locator('h2').first().textContent()).toBe('Our story');

  const visitor = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
  const live = await visitor.newPage();
  live.on('pageerror', (e) => errors.push(e.message));
  const res = await live.goto(`${suite.s.url}/sites/${d.websites.main}/`);
  expect(res?.status()).toBe(200);
  expect(await live.locator('h1').textContent()).toBe('Fresh bread every morning');
  expect(await live.locator('.draft-bar').count()).toBe(0);
  expect(await live.getByText('Pumpkin bread').count()).toBe(0);
  // The nav leads to other published pages; the page is readable on a phone (no horizontal scroll).
  await live.getByRole('link', { name: 'About' }).click();
  await live.waitForURL(`**/sites/${d.websites.main}/about`);
  expect(await live.locator('details summary').textContent()).toBe('Do you bake gluten-free?');
  const overflow = await live.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await live
    .screenshot({ path: path.join(tmpdir(), 'sitegate-published-mobile.png'), fullPage: true })
    .catch(() => {});
  expect(await live.evaluate(() => document.scripts.length)).toBe(0);
  expect(errors).toEqual([]);
  await owner.close();
  await visitor.close();
});
