// The owner's console in Chromium: every new page (the site console, its publish and unpublish reviews,
// a page's deletion, bookings with their reschedule and cancel steps, services, customers, a lead's
// edit, an erasure's confirmation, members, a member's removal, analytics, and the home
// listing a deleted site) fits 390 px and 1280 px with no serious or critical axe-core violation; and
// deleting a site through the typed confirmation, then restoring it from the home, works by clicking.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { bookings, leads } from '../../src/db/schema.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

it('every console page fits 390 and 1280 px and passes axe', async () => {
  const d = await suite.s.seed();
  const edited = await suite.s.call(d.tokens.all, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: 'Fresh rye every Saturday' },
  });
  expect(edited.ok).toBe(true);
  const site = `/dashboard/sites/${d.websites.main}`;
  const db = suite.s.sg.deps.services.db;
  const [pat] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.websiteId, d.websites.main), eq(bookings.customerName, 'Pat Customer')));
  const [jo] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.websiteId, d.websites.main), eq(leads.name, 'Jo Baker')));
  const paths = [
    `${site}/bookings`,
    `${site}/bookings/${pat!.id}/reschedule`,
    `${site}/bookings/${pat!.id}/cancel`,
    `${site}/services`,
    `${site}/products`,
    `${site}/customers/lead/${jo!.id}`,
    site,
    `${site}/publish`,
    `${site}/unpublish`,
    `${site}/pages/${d.pages.about}/delete`,
    `${site}/customers`,
    `${site}/members`,
    `${site}/members/${d.users.editor.id}/remove`,
    `${site}/analytics`,
  ];
  for (const width of WIDTHS) {
    const page = await signedIn(suite.browser, suite.s.url, d.users.owner, width);
    for (const path of paths) {
      const res = await page.goto(`${suite.s.url}${path}`);
      expect(res!.status(), path).toBe(200);
      expect(await overflowOf(page), `${path} at ${width}px`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${path} at ${width}px`).toEqual([]);
    }
    // The erasure review is the answer to a POST: reached through the Customers page's form.
    await page.goto(`${suite.s.url}${site}/customers`);
    await page.fill('#erase input[name=email]', 'pat@example.com');
    await Promise.all([page.waitForURL('**/customers/erase/review'), page.click('#review-erase')]);
    expect(await overflowOf(page), `erase review at ${width}px`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), `erase review at ${width}px`).toEqual([]);
    await page.context().close();
  }
}, 180_000);

it('deletes a site by typing its name, then restores it from the home', async () => {
  const d = await suite.s.seed();
  const page = await signedIn(suite.browser, suite.s.url, d.users.owner, 390);
  await page.goto(`${suite.s.url}/`);
  await Promise.all([
    page.waitForURL(`**/dashboard/sites/${d.websites.events}`),
    page.locator(`[data-site="${d.websites.events}"] a`, { hasText: 'Site console' }).click(),
  ]);
  await page.fill('input[name=name]', 'Harbor Bakery Events');
  await Promise.all([page.waitForURL('**/?done=site_deleted'), page.click('#confirm-delete-site')]);
  await expect(page.locator('#done').textContent()).resolves.toContain('deleted');
  expect(await page.locator(`[data-site="${d.websites.events}"]`).count()).toBe(0);
  const row = page.locator(`[data-deleted-site="${d.websites.events}"]`);
  expect(await row.count()).toBe(1);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflowOf(page), `home with a deleted site at ${width}px`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), `home with a deleted site at ${width}px`).toEqual([]);
  }
  await Promise.all([page.waitForURL('**?done=restored'), row.locator('button').click()]);
  await expect(page.locator('#done').textContent()).resolves.toContain('Restored');
  await page.context().close();
}, 120_000);

it('the approvals list shows a plan prepared while it is open, without the owner reloading', async () => {
  const d = await suite.s.seed();
  expect((await suite.s.call(d.tokens.all, 'prepare_unpublish')).ok).toBe(true);
  const page = await signedIn(suite.browser, suite.s.url, d.users.owner, 1280);
  await page.goto(`${suite.s.url}/approvals`);
  expect(await page.locator('#auto-refresh').isChecked()).toBe(true);
  const planId = (await suite.s.call(d.tokens.all, 'prepare_publish')).data!.planId as string;
  // The page reloads itself (every 15 s while a plan waits): bounded wait for the new row.
  await page.locator(`a[href="/approvals/${planId}"]`).waitFor({ timeout: 40_000 });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflowOf(page), `/approvals at ${width}px`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), `/approvals at ${width}px`).toEqual([]);
  }
  await page.context().close();
}, 90_000);
