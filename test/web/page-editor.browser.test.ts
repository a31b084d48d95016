// Editing the draft by hand in Chromium, at 390 and 1280 px: from the console to a page's sections, a
// hero's form (heading typed, an uploaded image chosen from the library), a section added, moved and
// hidden, each by clicking; every page of the editor fits the width and has no serious or critical
// axe-core violation.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { assets, sections } from '../../src/db/schema.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

it('edits a page by clicking, at 390 and 1280 px, axe-clean', async () => {
  const d = await suite.s.seed();
  const db = suite.s.sg.deps.services.db;
  const { default: sharp } = await import('sharp');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sg-upload-')), 'shop-front.png');
  writeFileSync(
    file,
    await sharp({ create: { width: 8, height: 5, channels: 3, background: '#336699' } })
      .png()
      .toBuffer(),
  );
  const site = `${suite.s.url}/dashboard/sites/${d.websites.main}`;
  const editor = `${site}/pages/${d.pages.home}`;
  const hero = `${editor}/sections/${d.sections.hero}`;
  const order = async () =>
    db
      .select({ id: sections.id, type: sections.type, hidden: sections.hidden, content: sections.content })
      .from(sections)
      .where(eq(sections.pageId, d.pages.home))
      .orderBy(asc(sections.position));

  for (const width of WIDTHS) {
    const page = await signedIn(suite.browser, suite.s.url, d.users.owner, width);
    for (const url of [editor, hero, `${editor}/sections/${d.sections.intro}`]) {
      expect((await page.goto(url))!.status(), url).toBe(200);
      expect(await overflowOf(page), `${url} at ${width}`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${url} at ${width}`).toEqual([]);
    }
    await page.context().close();
  }

  const page = await signedIn(suite.browser, suite.s.url, d.users.owner, 1280);
  await page.goto(site);
  await Promise.all([page.waitForURL(editor), page.click(`#edit-page-${d.pages.home}`)]);
  await Promise.all([page.waitForURL(hero), page.click(`#edit-${d.sections.hero}`)]);

  // An image from the computer into the library, then chosen for the hero.
  await page.setInputFiles('input[name="image"]', file);
  await Promise.all([page.waitForURL(`${hero}?done=uploaded`), page.click('#upload-image')]);
  await expect(page.locator('#done').textContent()).resolves.toContain('Image added to the library');
  const [uploaded] = await db.select().from(assets).where(eq(assets.source, 'upload'));
  expect(uploaded!.websiteId).toBe(d.websites.main);
  await page.fill('input[name="c.heading"]', 'Warm bread at the harbour');
  await page.selectOption('select[name="c.imageUrl"]', uploaded!.id);
  await Promise.all([page.waitForURL(`${editor}?done=saved`), page.click('#save-section')]);
  await expect(page.locator('#done').textContent()).resolves.toContain('Saved to the draft');
  let rows = await order();
  expect(rows[0]!.content).toMatchObject({ heading: 'Warm bread at the harbour', imageUrl: uploaded!.id });

  // A section added from the catalogue lands at the end and opens its form.
  await page.selectOption('#add-section select[name="type"]', 'cta');
  await Promise.all([page.waitForURL('**/sections/*?done=added'), page.click('#add-section-button')]);
  expect(await seriousViolations(page), 'a new section').toEqual([]);
  rows = await order();
  const added = rows.at(-1)!;
  expect(added.type).toBe('cta');

  await page.goto(editor);
  await Promise.all([page.waitForURL(`${editor}?done=moved`), page.click(`#up-${added.id}`)]);
  rows = await order();
  expect(rows.at(-2)!.id).toBe(added.id);
  await Promise.all([page.waitForURL(`${editor}?done=hidden`), page.click(`#hide-${added.id}`)]);
  expect((await order()).find((r) => r.id === added.id)!.hidden).toBe(true);
  await expect(page.locator(`[data-section="${added.id}"]`).textContent()).resolves.toContain('Hidden');
  expect(await seriousViolations(page), 'after the edits').toEqual([]);
  await page.context().close();
}, 180_000);
