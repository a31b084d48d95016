// The owner's booking calendar in the console (/dashboard/sites/:websiteId/bookings): upcoming first,
// then requests, then past; confirming, declining, rescheduling, cancelling, completing, marking a
// no-show and restoring, each emailing the customer where it tells them something (and saying
// honestly that the email only waits in the outbox without a mail server), each with its Activity line.
// Every refusal (a status that does not allow it, a stale page, a taken slot, a time in the past, a
// booking of another tenant, an editor, no CSRF token) changes nothing: no row, no mail, no line.
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, bookings, mailOutbox, services } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { type WebSession, signIn } from '../helpers/web.js';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
/** The same database without a mail server. */
let bare: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    seed: false,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sitegate <mail@sitegate.test>' },
  });
  bare = await startTestServer({ seed: false, database: s.sg.database });
});
afterAll(async () => {
  await bare?.close();
  await s?.close();
  await smtp?.close();
});

const db = () => s.sg.deps.services.db;
const DAY = 86_400_000;
const TZ = 'Europe/Amsterdam';
const listOf = (id: string) => `/dashboard/sites/${id}/bookings`;
const as = (who: { email: string; password: string }, server = s) =>
  signIn(server.url, who.email, who.password);

/** A booking of the main site's public workshop, `days` from now at 10:00 in the site's zone. */
async function booking(
  d: Demo,
  o: { status: string; days: number; email?: string | null; message?: string; websiteId?: string },
) {
  const websiteId = o.websiteId ?? d.websites.main;
  const [svc] = await db()
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.websiteId, websiteId), eq(services.name, 'Bread workshop')));
  const startsAt = atLocal(o.days, '10:00');
  const id = newId('bkg');
  await db()
    .insert(bookings)
    .values({
      id,
      websiteId,
      serviceId: svc?.id ?? null,
      status: o.status,
      customerName: 'Sam Visitor',
      customerEmail: o.email === undefined ? `sam-${uniqueTag()}@example.com`.toLowerCase() : o.email,
      message: o.message ?? 'Two people',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 2 * 3_600_000),
      source: 'form',
    });
  return { id, startsAt, email: o.email };
}

/** The instant of `time` on the day `days` from now, in the site's zone. */
function atLocal(days: number, time: string): Date {
  const { date } = local(new Date(Date.now() + days * DAY));
  const [h, m] = time.split(':').map(Number) as [number, number];
  // The zone's offset at that day's noon is the offset at 10:00 too (no switch happens in between).
  const noon = new Date(`${date}T12:00:00Z`);
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', hourCycle: 'h23' }).format(noon),
  );
  return new Date(noon.getTime() + ((h - 12) * 60 + m) * 60_000 - (hour - 12) * 3_600_000);
}

/** The local date and time of `at` in the site's zone, as a date and a time field hold them. */
function local(at: Date): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (t: string) => parts.find((x) => x.type === t)!.value;
  return { date: `${p('year')}-${p('month')}-${p('day')}`, time: `${p('hour')}:${p('minute')}` };
}

/** What a change could write: the booking, the site's outgoing mail and its booking Activity lines. */
async function stateOf(websiteId: string, bookingId: string) {
  const [row] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
  const [mail] = await db()
    .select({ n: count() })
    .from(mailOutbox)
    .where(eq(mailOutbox.websiteId, websiteId));
  const [lines] = await db()
    .select({ n: count() })
    .from(activity)
    .where(and(eq(activity.websiteId, websiteId), like(activity.tool, '%_booking')));
  return {
    status: row!.status,
    startsAt: row!.startsAt.toISOString(),
    endsAt: row!.endsAt.toISOString(),
    updatedAt: row!.updatedAt.toISOString(),
    mail: mail!.n,
    lines: lines!.n,
  };
}

/** The form the bookings page shows for a booking: what it was when the page was drawn. */
const shownOf = async (id: string) => {
  const [row] = await db().select().from(bookings).where(eq(bookings.id, id));
  return { status: row!.status, startsAt: row!.startsAt.toISOString() };
};

const post = (web: WebSession, websiteId: string, id: string, change: string, form: Record<string, string>) =>
  web.post(`${listOf(websiteId)}/${id}/${change}`, form);

describe('the bookings page', () => {
  it('lists upcoming bookings first, then requests, then past ones; visitor text as text', async () => {
    const d = await s.seed();
    const req = await booking(d, {
      status: 'requested',
      days: 5,
      message: '<b>bold</b> & <script>x</script>',
    });
    const up = await booking(d, { status: 'confirmed', days: 3 });
    const gone = await booking(d, { status: 'cancelled', days: 4 });
    const web = await as(d.users.owner);
    const page = await web.get(listOf(d.websites.main));
    expect(page.status).toBe(200);
    const at = (id: string) => page.html.indexOf(`data-booking="${id}"`);
    expect(at(up.id)).toBeGreaterThan(0);
    expect(at(up.id)).toBeLessThan(page.html.indexOf('id="requested"'));
    expect(at(req.id)).toBeGreaterThan(page.html.indexOf('id="requested"'));
    expect(at(gone.id)).toBeGreaterThan(page.html.indexOf('id="past"'));
    expect(page.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(page.html).not.toContain('<script>x');
    // The request offers Confirm, Decline and Reschedule; the cancelled one Restore.
    expect(page.html).toContain(`id="confirm-${req.id}"`);
    expect(page.html).toContain(`${listOf(d.websites.main)}/${req.id}/decline`);
    expect(page.html).toContain(`id="restore-${gone.id}"`);
    // The sub-navigation marks where the owner is.
    expect(page.html).toMatch(
      new RegExp(`<a href="${listOf(d.websites.main)}" aria-current="page">Bookings</a>`),
    );
  });
});

describe('the owner changes a booking', () => {
  it('confirms a request: confirmed, the customer is emailed the time, one Activity line', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'requested', days: 6 });
    const web = await as(d.users.owner);
    await web.get(listOf(d.websites.main));
    const r = await post(web, d.websites.main, b.id, 'confirm', await shownOf(b.id));
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${listOf(d.websites.main)}?done=confirm.sending`);
    expect((await stateOf(d.websites.main, b.id)).status).toBe('confirmed');
    const [row] = await db().select().from(bookings).where(eq(bookings.id, b.id));
    const msg = await smtp.waitFor(row!.customerEmail!);
    const body = msg.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('is confirmed');
    expect(body).toContain(`at 10:00 (${TZ})`);
    const lines = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'confirm_booking')));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.connectionId).toBeNull();
    expect(lines[0]!.summary).not.toContain('Sam');
    expect(lines[0]!.summary).not.toContain('@');
    const page = await web.get(r.location!);
    expect(page.html).toContain('The customer is emailed now.');
  });

  it('without a mail server says the email is only queued', async () => {
    const d = await bare.seed();
    const b = await booking(d, { status: 'requested', days: 6 });
    const web = await as(d.users.owner, bare);
    await web.get(listOf(d.websites.main));
    const r = await post(web, d.websites.main, b.id, 'confirm', await shownOf(b.id));
    expect(r.location).toBe(`${listOf(d.websites.main)}?done=confirm.queued`);
    const page = await web.get(r.location!);
    expect(page.html).toContain('has not left');
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, d.websites.main), eq(mailOutbox.kind, 'booking')));
    expect(mail!.status).toBe('queued');
    // A booking without an address (erased, say): confirmed, and the page says the customer was not told.
    const silent = await booking(d, { status: 'requested', days: 9, email: null });
    await web.get(listOf(d.websites.main));
    const quiet = await post(web, d.websites.main, silent.id, 'confirm', await shownOf(silent.id));
    expect(quiet.location).toBe(`${listOf(d.websites.main)}?done=confirm.no_address`);
    expect((await web.get(quiet.location!)).html).toContain('the customer was not told');
    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, d.websites.main), eq(mailOutbox.kind, 'booking')));
    expect(mails).toHaveLength(1);
  });

  it('declines a request with a message; the customer reads it', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'requested', days: 7 });
    const web = await as(d.users.owner);
    const ask = await web.get(`${listOf(d.websites.main)}/${b.id}/decline`);
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('name="message"');
    const r = await post(web, d.websites.main, b.id, 'decline', {
      ...(await shownOf(b.id)),
      message: 'We are closed that week, sorry!',
    });
    expect(r.status).toBe(303);
    expect((await stateOf(d.websites.main, b.id)).status).toBe('declined');
    const [row] = await db().select().from(bookings).where(eq(bookings.id, b.id));
    const body = (await smtp.waitFor(row!.customerEmail!)).raw.replace(/=\r?\n/g, '');
    expect(body).toContain('could not be accepted');
    expect(body).toContain('We are closed that week, sorry!');
  });

  it('a taken slot is refused until the booking holding it is cancelled; then it can be confirmed', async () => {
    const d = await s.seed();
    const holder = await booking(d, { status: 'confirmed', days: 8 });
    const wish = await booking(d, { status: 'requested', days: 8 });
    const web = await as(d.users.owner);
    await web.get(listOf(d.websites.main));
    const before = await stateOf(d.websites.main, wish.id);
    const refused = await post(web, d.websites.main, wish.id, 'confirm', await shownOf(wish.id));
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('the slot is taken');
    expect(refused.html).toContain('Nothing was changed.');
    expect(refused.html).toContain(`href="${listOf(d.websites.main)}"`);
    expect(await stateOf(d.websites.main, wish.id)).toEqual(before);

    await web.get(listOf(d.websites.main));
    const cancel = await post(web, d.websites.main, holder.id, 'cancel', await shownOf(holder.id));
    expect(cancel.status).toBe(303);
    expect((await stateOf(d.websites.main, holder.id)).status).toBe('cancelled');
    await web.get(listOf(d.websites.main));
    expect((await post(web, d.websites.main, wish.id, 'confirm', await shownOf(wish.id))).status).toBe(303);
    expect((await stateOf(d.websites.main, wish.id)).status).toBe('confirmed');
    // The cancelled one cannot come back into a slot that is taken again.
    await web.get(listOf(d.websites.main));
    const back = await post(web, d.websites.main, holder.id, 'restore', await shownOf(holder.id));
    expect(back.status).toBe(409);
    expect((await stateOf(d.websites.main, holder.id)).status).toBe('cancelled');
  });

  it('reschedules to a free time ahead, keeping the length; the past and a taken slot are refused', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'confirmed', days: 9 });
    const other = await booking(d, { status: 'confirmed', days: 10 });
    const web = await as(d.users.owner);
    const ask = await web.get(`${listOf(d.websites.main)}/${b.id}/reschedule`);
    expect(ask.html).toContain('name="date"');
    const before = await stateOf(d.websites.main, b.id);
    for (const to of [local(new Date(Date.now() - DAY)), local(other.startsAt)]) {
      const r = await post(web, d.websites.main, b.id, 'reschedule', { ...(await shownOf(b.id)), ...to });
      expect(r.status, JSON.stringify(to)).toBe(409);
      expect(await stateOf(d.websites.main, b.id)).toEqual(before);
    }
    const target = atLocal(11, '15:30');
    const r = await post(web, d.websites.main, b.id, 'reschedule', {
      ...(await shownOf(b.id)),
      ...local(target),
    });
    expect(r.status).toBe(303);
    const after = await stateOf(d.websites.main, b.id);
    expect(after.startsAt).toBe(target.toISOString());
    expect(new Date(after.endsAt).getTime() - target.getTime()).toBe(2 * 3_600_000);
    expect(after.status).toBe('confirmed');
    const [row] = await db().select().from(bookings).where(eq(bookings.id, b.id));
    const body = (await smtp.waitFor(row!.customerEmail!)).raw.replace(/=\r?\n/g, '');
    expect(body).toContain('has moved from');
    expect(body).toContain('at 15:30');
  });

  it('marks a started booking completed or a no-show; restores a cancelled one; none of these by crm_update', async () => {
    const d = await s.seed();
    const past = await booking(d, { status: 'confirmed', days: -2 });
    const ahead = await booking(d, { status: 'confirmed', days: 12 });
    const gone = await booking(d, { status: 'cancelled', days: 13 });
    const web = await as(d.users.owner);
    await web.get(listOf(d.websites.main));
    expect((await post(web, d.websites.main, past.id, 'complete', await shownOf(past.id))).status).toBe(303);
    expect((await stateOf(d.websites.main, past.id)).status).toBe('completed');
    await web.get(listOf(d.websites.main));
    expect((await post(web, d.websites.main, past.id, 'no_show', await shownOf(past.id))).status).toBe(303);
    expect((await stateOf(d.websites.main, past.id)).status).toBe('no_show');
    // Not before it started.
    const before = await stateOf(d.websites.main, ahead.id);
    await web.get(listOf(d.websites.main));
    const early = await post(web, d.websites.main, ahead.id, 'complete', await shownOf(ahead.id));
    expect(early.status).toBe(409);
    expect(early.html).toContain('has not started yet');
    expect(await stateOf(d.websites.main, ahead.id)).toEqual(before);
    await web.get(listOf(d.websites.main));
    expect((await post(web, d.websites.main, gone.id, 'restore', await shownOf(gone.id))).status).toBe(303);
    expect((await stateOf(d.websites.main, gone.id)).status).toBe('confirmed');
    // The tool still cannot confirm, cancel or restore a booking.
    for (const status of ['confirmed', 'cancelled', 'completed']) {
      const out = await s.call(d.tokens.all, 'crm_update', { record: 'booking', id: ahead.id, status });
      expect(out.error?.code, status).toBe('not_settable');
    }
    expect((await stateOf(d.websites.main, ahead.id)).status).toBe('confirmed');
  });
});

describe('refusals change nothing', () => {
  it('a status that does not allow the change, and a stale page (a second owner was first)', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'requested', days: 14 });
    const first = await as(d.users.owner);
    const second = await as(d.users.owner);
    await first.get(listOf(d.websites.main));
    await second.get(listOf(d.websites.main));
    const seen = await shownOf(b.id);
    // Not allowed from `requested`, even with the page current.
    const before = await stateOf(d.websites.main, b.id);
    for (const change of ['cancel', 'complete', 'no_show', 'restore']) {
      const r = await post(first, d.websites.main, b.id, change, seen);
      expect(r.status, change).toBe(409);
      expect(r.html).toContain('Nothing was changed.');
    }
    expect(await stateOf(d.websites.main, b.id)).toEqual(before);
    // Both owners see the request; the first confirms; the second's decline is refused.
    expect((await post(first, d.websites.main, b.id, 'confirm', seen)).status).toBe(303);
    const mid = await stateOf(d.websites.main, b.id);
    const late = await post(second, d.websites.main, b.id, 'decline', seen);
    expect(late.status).toBe(409);
    expect(late.html).toContain('changed after your page was shown');
    expect(late.html).toContain('data-code="conflict"');
    expect(await stateOf(d.websites.main, b.id)).toEqual(mid);
    // A form that names a different start than the booking has now is stale too.
    const moved = await post(second, d.websites.main, b.id, 'cancel', {
      status: 'confirmed',
      startsAt: new Date(b.startsAt.getTime() + 3_600_000).toISOString(),
    });
    expect(moved.status).toBe(409);
    expect(await stateOf(d.websites.main, b.id)).toEqual(mid);
  });

  it('two owners deciding the same request at the same moment: one wins, the other is refused', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'requested', days: 16 });
    const [first, second] = [await as(d.users.owner), await as(d.users.owner)];
    await first.get(listOf(d.websites.main));
    await second.get(listOf(d.websites.main));
    const seen = await shownOf(b.id);
    const [a, c] = await Promise.all([
      post(first, d.websites.main, b.id, 'confirm', seen),
      post(second, d.websites.main, b.id, 'decline', seen),
    ]);
    expect([a.status, c.status].sort()).toEqual([303, 409]);
    const after = await stateOf(d.websites.main, b.id);
    expect(after.status).toBe(a.status === 303 ? 'confirmed' : 'declined');
    // One change, one email, one line.
    expect(after.lines).toBe(1);
    expect(after.mail).toBe(1);
  });

  it('another tenant’s booking, an editor, a viewer and a form without CSRF token', async () => {
    const d = await s.seed();
    const b = await booking(d, { status: 'requested', days: 15 });
    const seen = await shownOf(b.id);
    const before = await stateOf(d.websites.main, b.id);
    // The other tenant's owner: on our site, and on theirs naming our booking.
    const other = await as(d.users.otherOwner);
    await other.get('/');
    expect((await post(other, d.websites.main, b.id, 'confirm', seen)).status).toBe(404);
    expect((await post(other, d.websites.otherTenant, b.id, 'confirm', seen)).status).toBe(404);
    expect((await other.get(listOf(d.websites.main))).status).toBe(404);
    for (const who of [d.users.editor, d.users.viewer]) {
      const web = await as(who);
      expect((await web.get(listOf(d.websites.main))).status).toBe(403);
      expect((await web.get(`${listOf(d.websites.main)}/${b.id}/decline`)).status).toBe(403);
      await web.get('/');
      expect((await post(web, d.websites.main, b.id, 'confirm', seen)).status).toBe(403);
    }
    const owner = await as(d.users.owner);
    await owner.get(listOf(d.websites.main));
    const noToken = await owner.post(`${listOf(d.websites.main)}/${b.id}/confirm`, seen, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(await stateOf(d.websites.main, b.id)).toEqual(before);
  });
});
