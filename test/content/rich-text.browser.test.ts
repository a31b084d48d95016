// Tables and fenced code on the live site, in a real Chromium at a phone's and a desktop's
// width: the table is a real table whose wide columns scroll inside their own box (the page itself
// never scrolls sideways), the code keeps its line breaks and indentation and shows `<` and `&` as text, and
// no script runs. The same post in the editor preview shows the same table and code.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { RICH_POST } from '../fixtures/rich-post.js';
import { browserSuite, submitLogin } from '../helpers/browser.js';

const suite = browserSuite();

it('a post with a table and a fenced code block renders them on the live site at 390 and 1280 px', async () => {
  const d = suite.s.demo;
  const post = await suite.s.call(d.tokens.default, 'create_blog_post', RICH_POST);
  expect(post.ok, JSON.stringify(post.error)).toBe(true);
  await suite.s.sg.deps.services.db.transaction((tx) => publishDraft(tx, d.websites.main, new Date()));
  for (const width of [390, 1280]) {
    const ctx = await suite.browser.newContext({ viewport: { width, height: 900 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${suite.s.url}/sites/${d.websites.main}/${post.data!.slug}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('table th').allTextContents()).toEqual(['Loaf', 'Oven', 'Minutes', 'Notes']);
    expect(await page.locator('table tbody tr').count()).toBe(3);
    expect(await page.locator('td strong').textContent()).toBe('Egg wash');
    expect(await page.locator('td a').getAttribute('href')).toBe(`/sites/${d.websites.main}/about`);
    // Right-aligned numbers, as the delimiter row says.
    expect(
      await page
        .locator('td.al-right')
        .first()
        .evaluate((e) => getComputedStyle(e).textAlign),
    ).toBe('right');
    const code = page.locator('pre code.language-python');
    expect(await code.textContent()).toBe(
      'def check(temp):\n    if temp < 230 and "&" in MODE:\n        alert("Oven too cold")\n',
    );
    // The page never scrolls sideways; a wide table or code line scrolls in its own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await page
      .screenshot({ path: path.join(tmpdir(), `sitegate-rich-text-${width}.png`), fullPage: true })
      .catch(() => {});
    expect(errors).toEqual([]);
    await ctx.close();
  }
  // The owner's editor preview shows the same table and code.
  const owner = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const preview = await owner.newPage();
  await preview.goto(`${suite.s.url}/editor/${d.websites.main}/${post.data!.slug}`);
  await submitLogin(preview, d.users.owner);
  await preview.waitForURL(`**/editor/${d.websites.main}/${post.data!.slug}`);
  expect(await preview.locator('table tbody tr').count()).toBe(3);
  expect(await preview.locator('pre code').textContent()).toContain('    if temp < 230 and');
  await owner.close();
});
