// Booking requests from the published site (R-VIS-2): a public service with a duration offers
// a request form; a request becomes a booking with status `requested`, read in the site's time zone,
// fenced in list_bookings, counted in analytics, mailed to the owner. Statuses other than no_show stay
// with the owner. Every refusal writes nothing.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, services } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';
import { type Visitor, crowd, fillAndSend, formOf, writesOf } from './visitor.js';

let s: TestServer;
const time = testClock();
const people = crowd('127.0.41');
const someone = () => people.next();
beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: time.clock });
});
afterAll(async () => {
  await people.close();
  await s?.close();
});
const db = () => s.sg.deps.services.db;

async function serviceIds(d: Demo) {
  const rows = await db().select().from(services).where(eq(services.websiteId, d.websites.main));
  return {
    workshop: rows.find((r) => r.name === 'Bread workshop')!.id,
    tasting: rows.find((r) => r.name === 'Wedding cake tasting')!.id,
  };
}

/** A local date `days` ahead, as the site's visitors in Amsterdam would pick it. */
const localDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(
    new Date(time.clock().getTime() + days * 86_400_000),
  );

const request = (v: Visitor, d: Demo, serviceId: string, fields: Record<string, string>) =>
  fillAndSend(
    v,
    s.url,
    `${s.url}/sites/${d.websites.main}/book/${serviceId}`,
    `/_forms/book/${serviceId}`,
    fields,
    () => time.advance(6_000),
  );

const person = { name: 'Bo Booker', email: 'bo@example.com', note: 'Two of us\u200b, one vegetarian' };

describe('booking requests', () => {
  it('lists only public services with a duration, and a request becomes a `requested` booking', async () => {
    const d = await s.seed();
    const { workshop, tasting } = await serviceIds(d);
    const v = someone();
    const index = await v.get(`${s.url}/sites/${d.websites.main}/book`);
    expect(index.status).toBe(200);
    expect(index.html).toContain('Bread workshop');
    expect(index.html).toContain('120 minutes · EUR 45.00');
    expect(index.html).not.toContain('Wedding cake tasting'); // still a draft
    expect((await v.get(`${s.url}/sites/${d.websites.main}/book/${tasting}`)).status).toBe(404);

    const before = await s.call(d.tokens.all, 'get_analytics_summary', { days: 1 });
    const date = localDate(3);
    const res = await request(v, d, workshop, { ...person, date, time: '10:30' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/sites/${d.websites.main}/_sent/booking`);
    const thanks = await v.get(`${s.url}${res.headers.get('location')}`);
    expect(thanks.html).toContain('It is a request, not yet a booking.');

    const list = await s.call(d.tokens.all, 'list_bookings', { status: 'requested' });
    expect(list.ok).toBe(true);
    const [b] = list.data!.bookings as Array<Record<string, any>>;
    expect(b).toMatchObject({
      status: 'requested',
      serviceId: workshop,
      customerName: { untrusted: true, text: 'Bo Booker' },
      customerEmail: { untrusted: true, text: 'bo@example.com' },
      message: { untrusted: true, text: 'Two of us, one vegetarian' },
    });
    // 10:30 on that day in Amsterdam, read back by the platform's own time-zone database.
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Amsterdam',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(b!.startsAt));
    expect(local).toBe(`${date}, 10:30`);
    expect(new Date(b!.endsAt).getTime() - new Date(b!.startsAt).getTime()).toBe(120 * 60_000);

    const after = await s.call(d.tokens.all, 'get_analytics_summary', { days: 1 });
    expect(after.data!.bookings - before.data!.bookings).toBe(1);
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, d.websites.main), eq(mailOutbox.kind, 'booking_request')));
    expect(mail).toMatchObject({
      to: d.users.owner.email,
      subject: 'New booking request on your website Harbor Bakery',
    });
    expect(mail!.text).toContain(
      `Someone asked to book "Bread workshop" on ${date} at 10:30 (Europe/Amsterdam).`,
    );
    // It names the page where the owner decides (test/web/bookings.test.ts: it lists requests).
    expect(mail!.text).toContain('the Bookings page of this website');

    // The owner decides: crm_update cannot confirm or cancel it, nor call a future booking a no-show.
    const cancel = await s.call(d.tokens.all, 'crm_update', {
      record: 'booking',
      id: b!.id,
      status: 'cancelled',
    });
    expect(cancel.error?.code).toBe('not_settable');
    const noShow = await s.call(d.tokens.all, 'crm_update', {
      record: 'booking',
      id: b!.id,
      status: 'no_show',
    });
    expect(noShow.error?.code).toBe('not_settable');
    const handled = await s.call(d.tokens.all, 'crm_update', { record: 'booking', id: b!.id, handled: true });
    expect(handled.ok).toBe(true);
    const again = await s.call(d.tokens.all, 'list_bookings', { status: 'requested' });
    expect(again.data!.bookings[0]).toMatchObject({ id: b!.id, status: 'requested', handled: true });
  });

  it('refuses, writing nothing: a past time, a date that does not exist, too far ahead, missing fields, spam', async () => {
    const d = await s.seed();
    const { workshop } = await serviceIds(d);
    const before = await writesOf(db(), d.websites.main);
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ...person, date: localDate(-1), time: '10:00' }, 422, 'Please choose a time in the future.'],
      [
        { ...person, date: '2031-02-30', time: '10:00' },
        422,
        'That date does not exist; please choose another.',
      ],
      [{ ...person, date: localDate(400), time: '10:00' }, 422, 'Please choose a date within the next year.'],
      [{ ...person, date: 'tomorrow', time: '25:00' }, 422, 'Please choose a time (for example 14:30).'],
      [{ ...person, name: '', date: localDate(2), time: '09:00' }, 422, 'Please enter your name.'],
    ];
    for (const [fields, status, message] of cases) {
      const res = await request(someone(), d, workshop, fields);
      expect(res.status).toBe(status);
      expect(res.html).toContain(message);
      expect(res.html).toContain('value="bo@example.com"');
    }
    const spam = await request(someone(), d, workshop, {
      ...person,
      date: localDate(2),
      time: '09:00',
      website: 'x',
    });
    expect(spam.status).toBe(303);
    expect(await writesOf(db(), d.websites.main)).toEqual(before);
  });

  it('a service that is not public or has no duration offers no form, and takes no request', async () => {
    const d = await s.seed();
    const { workshop, tasting } = await serviceIds(d);
    const v = someone();
    const page = await v.get(`${s.url}/sites/${d.websites.main}/book/${workshop}`);
    const f = formOf(page.html, `/_forms/book/${workshop}`);
    // The owner takes the workshop off the site while the form is open; the tasting is public but has no duration.
    await db().update(services).set({ status: 'draft' }).where(eq(services.id, workshop));
    await db()
      .update(services)
      .set({ status: 'public', durationMinutes: null })
      .where(eq(services.id, tasting));
    time.advance(6_000);
    const before = await writesOf(db(), d.websites.main);
    const res = await v.post(s.url + f.action, { ...f.hidden, ...person, date: localDate(2), time: '09:00' });
    expect(res.status).toBe(404);
    expect((await v.get(`${s.url}/sites/${d.websites.main}/book/${tasting}`)).status).toBe(404);
    expect((await v.get(`${s.url}/sites/${d.websites.main}/book`)).status).toBe(404);
    expect(await writesOf(db(), d.websites.main)).toEqual(before);
  });
});
