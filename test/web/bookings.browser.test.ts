// The owner confirms a booking request in Chromium at 1280 px: the bookings page and its confirmation
// steps have no serious or critical axe-core violation and fit the width; clicking Confirm confirms
// the booking and the page says so.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { bookings } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { browserSuite } from '../helpers/browser.js';
import { overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

it('confirms a booking request by clicking, at 1280 px, axe-clean', async () => {
  const d = await suite.s.seed();
  const db = suite.s.sg.deps.services.db;
  const id = newId('bkg');
  const startsAt = new Date(Date.now() + 5 * 86_400_000);
  await db.insert(bookings).values({
    id,
    websiteId: d.websites.main,
    status: 'requested',
    customerName: 'Sam Visitor',
    customerEmail: 'sam@example.com',
    message: 'Two people, one vegetarian',
    startsAt,
    endsAt: new Date(startsAt.getTime() + 3_600_000),
  });
  const list = `${suite.s.url}/dashboard/sites/${d.websites.main}/bookings`;
  const page = await signedIn(suite.browser, suite.s.url, d.users.owner, 1280);
  for (const path of [list, `${list}/${id}/decline`, `${list}/${id}/reschedule`]) {
    expect((await page.goto(path))!.status(), path).toBe(200);
    expect(await overflowOf(page), path).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), path).toEqual([]);
  }
  await page.goto(list);
  expect(await page.locator('nav.sub a[aria-current="page"]').textContent()).toBe('Bookings');
  await Promise.all([page.waitForURL('**/bookings?done=confirm.*'), page.click(`#confirm-${id}`)]);
  await expect(page.locator('#done').textContent()).resolves.toContain('Confirmed.');
  expect(await page.locator(`#upcoming [data-booking="${id}"]`).count()).toBe(1);
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  expect(row!.status).toBe('confirmed');
  expect(await seriousViolations(page), 'after confirming').toEqual([]);
  await page.context().close();
}, 120_000);
