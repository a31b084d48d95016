// The owner closes in Chromium, by clicking, the loops agents and visitors open: a service an assistant
// made is published and taken back (at 390 px), a person is invited, their invitation resent and
// revoked, a member's level changed (1280 px), a booking request declined with a message, a confirmed
// booking rescheduled and another cancelled (390 px); each page is axe-clean before and after, fits its
// width, and the database holds what the page says.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { bookings, invitations, services, websiteMembers } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { browserSuite } from '../helpers/browser.js';
import { overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

async function looked(page: Page, what: string) {
  expect(await overflowOf(page), what).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page), what).toEqual([]);
}

/** Clicks `selector` and waits for the page it leads to (a confirmation step or a redirect). */
async function click(page: Page, selector: string) {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

it('publishes a service, invites and manages people, and changes bookings, by clicking', async () => {
  const d = await suite.s.seed();
  const db = suite.s.sg.deps.services.db;
  const site = `${suite.s.url}/dashboard/sites/${d.websites.main}`;

  // A service an assistant created, published and taken back by the owner on a phone.
  const made = await suite.s.call(d.tokens.all, 'create_service', {
    name: 'Bread class',
    description: 'Two hours of shaping loaves.',
    priceCents: 4500,
    durationMinutes: 120,
  });
  const serviceId = made.data!.serviceId as string;
  const phone = await signedIn(suite.browser, suite.s.url, d.users.owner, 390);
  await phone.goto(`${site}/services`);
  await looked(phone, 'services at 390');
  await click(phone, `#publish-${serviceId}`);
  expect((await db.select().from(services).where(eq(services.id, serviceId)))[0]!.status).toBe('public');
  await looked(phone, 'services after publishing');
  await click(phone, `#unpublish-${serviceId}`);
  expect((await db.select().from(services).where(eq(services.id, serviceId)))[0]!.status).toBe('draft');

  // People, at 1280: invite, resend, revoke; the editor made a viewer.
  const desk = await signedIn(suite.browser, suite.s.url, d.users.owner, 1280);
  await desk.goto(`${site}/members`);
  await looked(desk, 'members at 1280');
  await desk.fill('#invite input[name="email"]', 'sam.baker@example.com');
  await desk.selectOption('#invite select[name="level"]', 'viewer');
  await click(desk, '#invite-submit');
  await expect(desk.locator('#done').textContent()).resolves.toContain('Invited.');
  const [invite] = await db.select().from(invitations).where(eq(invitations.email, 'sam.baker@example.com'));
  expect([invite!.level, invite!.status]).toEqual(['viewer', 'pending']);
  await click(desk, `#resend-${invite!.id}`);
  await expect(desk.locator('#done').textContent()).resolves.toContain('Resent with a new link');
  await click(desk, `#revoke-${invite!.id}`);
  expect(
    (await db.select().from(invitations).where(eq(invitations.id, invite!.id)))[0]?.status ?? 'gone',
  ).not.toBe('pending');
  await click(desk, `#level-${d.users.editor.id}`);
  const [editorRow] = await db
    .select({ role: websiteMembers.role })
    .from(websiteMembers)
    .where(eq(websiteMembers.userId, d.users.editor.id));
  expect(editorRow!.role).toBe('viewer');
  await looked(desk, 'members after the changes');

  // Bookings, on the phone: a request declined with a message, a confirmed booking moved, another cancelled.
  const booking = async (status: string, inDays: number) => {
    const id = newId('bkg');
    const startsAt = new Date(Date.now() + inDays * 86_400_000);
    startsAt.setUTCHours(10, 0, 0, 0);
    await db.insert(bookings).values({
      id,
      websiteId: d.websites.main,
      status,
      customerName: `Guest ${inDays}`,
      customerEmail: `guest${inDays}@example.com`,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
    });
    return id;
  };
  const statusOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const requested = await booking('requested', 3);
  const moved = await booking('confirmed', 4);
  const cancelled = await booking('confirmed', 5);
  await phone.goto(`${site}/bookings`);
  await looked(phone, 'bookings at 390');

  await click(phone, `[data-booking="${requested}"] a[href$="/decline"]`);
  await looked(phone, 'decline step at 390');
  await phone.fill('textarea[name="message"]', 'Sorry, we are closed that day.');
  await click(phone, '#confirm-decline');
  expect((await statusOf(requested)).status).toBe('declined');

  await click(phone, `[data-booking="${moved}"] a[href$="/reschedule"]`);
  await looked(phone, 'reschedule step at 390');
  const day = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
  await phone.fill('input[name="date"]', day);
  await phone.fill('input[name="time"]', '14:30');
  await click(phone, '#confirm-reschedule');
  const after = await statusOf(moved);
  expect(after.status).toBe('confirmed');
  expect(after.startsAt.toISOString().slice(0, 10)).toBe(day);

  await click(phone, `[data-booking="${cancelled}"] a[href$="/cancel"]`);
  await click(phone, '#confirm-cancel');
  expect((await statusOf(cancelled)).status).toBe('cancelled');
  await looked(phone, 'bookings after the changes');

  // The analytics page at both widths.
  for (const page of [phone, desk]) {
    await page.goto(`${site}/analytics`);
    await looked(page, 'analytics');
  }
  await phone.context().close();
  await desk.context().close();
}, 180_000);
