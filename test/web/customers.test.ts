// The console's customers page and erasing one person's personal data (a data-protection request):
// visitor text is shown as text, never markup; after the erasure no tool returns the address and a scan
// of every text and jsonb column of every table finds it nowhere (a keyed call's stored answer too: its
// replay no longer tells the address); rows stay as anonymous records; unsent
// mail to the person is cancelled; the Activity line has counts, never the person. The owner succeeds;
// an editor, a viewer and another tenant's owner are refused with nothing changed; CSRF is required.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, bookings, contacts, documents, leads, mailOutbox } from '../../src/db/schema.js';
import { queueMail } from '../../src/domain/mail/outbox.js';
import { newId } from '../../src/kernel/ids.js';
import { uniqueTag } from '../helpers/db.js';
import { columnsHolding } from '../helpers/scan.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const customersOf = (id: string) => `/dashboard/sites/${id}/customers`;

/** One person with a lead, a booking, a contact, a draft invoice and mail, under a unique address. */
async function person(d: Demo) {
  const email = `erase-${uniqueTag()}@example.com`.toLowerCase();
  const shown = email.replace('erase', 'Erase'); // the visitor typed it with a capital
  const now = new Date();
  await db()
    .insert(leads)
    .values([
      {
        id: newId('lead'),
        websiteId: d.websites.main,
        status: 'new',
        name: 'Robin Private',
        email: shown,
        phone: '+31 6 5555 0000',
        message: '<script>alert("x")</script> Please call me back.',
        note: 'Robin is a regular',
      },
      {
        id: newId('lead'),
        websiteId: d.websites.main,
        status: 'new',
        name: 'A friend',
        message: `Also write to my friend at ${shown} please.`,
      },
    ]);
  await db()
    .insert(bookings)
    .values({
      id: newId('bkg'),
      websiteId: d.websites.main,
      status: 'confirmed',
      customerName: 'Robin Private',
      customerEmail: email,
      customerPhone: '+31 6 5555 0000',
      message: 'Window seat',
      startsAt: new Date(now.getTime() + 86_400_000),
      endsAt: new Date(now.getTime() + 90_000_000),
    });
  await db()
    .insert(contacts)
    .values({
      id: newId('ctc'),
      websiteId: d.websites.main,
      status: 'customer',
      name: 'Robin Private',
      email,
      company: 'Robin BV',
    });
  const docId = newId('doc');
  await db()
    .insert(documents)
    .values({
      id: docId,
      websiteId: d.websites.main,
      kind: 'invoice',
      number: `INV-${uniqueTag()}`,
      recipientName: 'Robin Private',
      recipientEmail: email,
      lines: [{ description: 'Cake', quantity: 1, unitPriceCents: 1000 }],
      totalCents: 1000,
    });
  const toThem = await queueMail(
    db(),
    { websiteId: d.websites.main, kind: 'document', to: email, subject: 'Your invoice', text: 'Hello Robin' },
    now,
  );
  const aboutThem = await queueMail(
    db(),
    {
      websiteId: d.websites.main,
      kind: 'lead',
      to: d.users.owner.email,
      subject: 'New message',
      text: `From Robin Private <${shown}>: please call me back.`,
    },
    now,
  );
  const sent = await queueMail(
    db(),
    {
      websiteId: d.websites.main,
      kind: 'document',
      to: email,
      subject: 'Earlier invoice',
      text: 'Hello Robin',
    },
    now,
  );
  await db().update(mailOutbox).set({ status: 'sent', sentAt: now }).where(eq(mailOutbox.id, sent));
  const plan = await s.call(d.tokens.all, 'prepare_send_document', { documentId: docId });
  expect(plan.ok, JSON.stringify(plan.error)).toBe(true);
  // A keyed call whose stored answer (kept a day for its replay) names the person.
  const grant = { email: shown, level: 'viewer', idempotencyKey: `grant-${uniqueTag()}` };
  const invite = await s.call(d.tokens.all, 'prepare_grant_access', grant);
  expect(invite.ok, JSON.stringify(invite.error)).toBe(true);
  expect(JSON.stringify(invite.data).toLowerCase()).toContain(email);
  return { email, shown, mail: { toThem, aboutThem, sent }, planId: plan.data!.planId as string, grant };
}

/** Every column of every table that holds `needle` in some row. */
const scan = (needle: string) => columnsHolding(db(), needle);

const counts = async (websiteId: string) => ({
  leads: (await db().select({ n: count() }).from(leads).where(eq(leads.websiteId, websiteId)))[0]!.n,
  bookings: (await db().select({ n: count() }).from(bookings).where(eq(bookings.websiteId, websiteId)))[0]!.n,
  contacts: (await db().select({ n: count() }).from(contacts).where(eq(contacts.websiteId, websiteId)))[0]!.n,
});

describe('customers', () => {
  it('lists leads, bookings and contacts with visitor text as text, never markup', async () => {
    const d = await s.seed();
    const p = await person(d);
    const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    const page = await web.get(customersOf(d.websites.main));
    expect(page.status).toBe(200);
    expect(page.html.startsWith('<!doctype html>')).toBe(true);
    // An address is shown whole; its line-break hints (<wbr>) are no characters.
    expect(page.html.replace(/<wbr\s*\/?>/g, '')).toContain(p.shown);
    expect(page.html).toContain('Pat Customer');
    expect(page.html).toContain('&lt;script&gt;');
    expect(page.html).not.toContain('<script>alert');
    // The console links here.
    expect((await web.get(`/dashboard/sites/${d.websites.main}`)).html).toContain(
      `href="${customersOf(d.websites.main)}"`,
    );
  });

  it('erases one person: anonymous rows stay, unsent mail is cancelled, the address is nowhere', async () => {
    const d = await s.seed();
    const p = await person(d);
    expect((await scan(p.email)).length).toBeGreaterThan(0);
    const before = await counts(d.websites.main);
    const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    await web.get(customersOf(d.websites.main));
    const confirm = await web.post(`${customersOf(d.websites.main)}/erase/review`, {
      email: p.shown.toUpperCase(),
    });
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('1 lead, 1 booking and 1 contact');
    const r = await web.post(`${customersOf(d.websites.main)}/erase`, { email: p.shown.toUpperCase() });
    expect(r.status).toBe(303);
    expect(r.location).toContain('done=erased');

    expect(await scan(p.email)).toEqual([]);
    expect(await counts(d.websites.main)).toEqual(before);
    // Someone else's records are untouched.
    const pat = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.websiteId, d.websites.main), eq(contacts.name, 'Pat Customer')));
    expect(pat[0]!.email).toBe('pat@example.com');

    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.websiteId, d.websites.main));
    const byId = new Map(mail.map((m) => [m.id, m]));
    expect(byId.get(p.mail.toThem)!.status).toBe('cancelled');
    expect(byId.get(p.mail.aboutThem)!.status).toBe('cancelled');
    expect(byId.get(p.mail.sent)!.status).toBe('sent');

    // No tool returns the address (nor the name it was given).
    for (const tool of ['list_leads', 'list_bookings', 'list_contacts', 'list_sendable_documents']) {
      const out = await s.call(d.tokens.all, tool, {});
      expect(out.ok, tool).toBe(true);
      expect(JSON.stringify(out.data).toLowerCase(), tool).not.toContain(p.email);
      expect(JSON.stringify(out.data), tool).not.toContain('Robin Private');
    }
    expect((await s.call(d.tokens.all, 'confirm_pending_action', { planId: p.planId })).error?.code).toBe(
      'not_found',
    );
    // The replay of the keyed invitation no longer tells the address (nor a plan that is gone).
    const replay = await s.call(d.tokens.all, 'prepare_grant_access', p.grant);
    expect(JSON.stringify(replay).toLowerCase()).not.toContain(p.email);
    expect(replay.error?.code).toBe('not_found');

    const [line] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'erase_personal_data')));
    expect(line!.summary).toContain('1 lead, 1 booking, 1 contact, 1 draft document');
    expect(line!.summary).toContain('2 unsent emails cancelled');
    expect(line!.summary.toLowerCase()).not.toContain('robin');
    expect(line!.summary.toLowerCase()).not.toContain('erase-');
  });

  it('the address is in no URL: not the review’s, not a link or form of its pages, not the redirect', async () => {
    const d = await s.seed();
    const p = await person(d);
    const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    const forms = [p.email, encodeURIComponent(p.email), p.email.replace('@', '%40')];
    const urlsOf = (html: string) => [...html.matchAll(/\b(?:href|action|src)="([^"]*)"/g)].map((m) => m[1]!);
    const page = await web.get(customersOf(d.websites.main));
    // The Customers page's erase form posts its address; a GET review with it in the query is gone.
    expect(page.html).toMatch(/<form method="post" action="[^"]*\/customers\/erase\/review"/);
    expect(
      (await web.get(`${customersOf(d.websites.main)}/erase?email=${encodeURIComponent(p.email)}`)).status,
    ).toBe(404);
    const review = await web.post(`${customersOf(d.websites.main)}/erase/review`, { email: p.email });
    expect(review.status).toBe(200);
    expect(review.html).toContain(p.email); // it is shown, in the page
    const done = await web.post(`${customersOf(d.websites.main)}/erase`, { email: p.email });
    expect(done.status).toBe(303);
    const after = await web.get(done.location!);
    const urls = [...urlsOf(page.html), ...urlsOf(review.html), done.location!, ...urlsOf(after.html)];
    expect(urls.length).toBeGreaterThan(5);
    for (const u of urls) for (const f of forms) expect(u.toLowerCase()).not.toContain(f.toLowerCase());
  });

  it('an editor, a viewer and another tenant’s owner are refused; without CSRF nothing happens', async () => {
    const d = await s.seed();
    const p = await person(d);
    const hitsBefore = await scan(p.email);
    for (const [who, status] of [
      [d.users.editor, 403],
      [d.users.viewer, 403],
      [d.users.otherOwner, 404],
    ] as const) {
      const web = await signIn(s.url, who.email, who.password);
      expect((await web.get(customersOf(d.websites.main))).status, who.email).toBe(status);
      await web.get('/');
      expect(
        (await web.post(`${customersOf(d.websites.main)}/erase/review`, { email: p.email })).status,
      ).toBe(status);
      expect((await web.post(`${customersOf(d.websites.main)}/erase`, { email: p.email })).status).toBe(
        status,
      );
    }
    const owner = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    await owner.get(customersOf(d.websites.main));
    expect(
      (await owner.post(`${customersOf(d.websites.main)}/erase`, { email: p.email }, { csrf: false })).status,
    ).toBe(403);
    // A malformed address is refused.
    expect(
      (await owner.post(`${customersOf(d.websites.main)}/erase`, { email: 'not an address' })).status,
    ).toBe(400);
    expect(await scan(p.email)).toEqual(hitsBefore);
  });

  it('finds the address in notes and messages whatever its case, and takes its _ and % literally', async () => {
    const d = await s.seed();
    const tag = uniqueTag().toLowerCase();
    const email = `robin_p%${tag}@example.com`;
    // What a wildcard reading of the address would also match: someone else's, left alone.
    const other = `robinxpz${tag}@example.com`;
    const site = d.websites.main;
    const [lead, booking, contact] = [newId('lead'), newId('bkg'), newId('ctc')];
    await db()
      .insert(leads)
      .values({
        id: lead,
        websiteId: site,
        status: 'new',
        name: 'A friend',
        message: `Write to ${other} too.`,
        note: `Robin is ${email.toUpperCase()}.`,
      });
    const at = new Date(Date.now() + 86_400_000);
    await db()
      .insert(bookings)
      .values({
        id: booking,
        websiteId: site,
        status: 'requested',
        customerName: 'Sam',
        message: `Bring ${email} along`,
        note: `Also ${other}`,
        startsAt: at,
        endsAt: new Date(at.getTime() + 3_600_000),
      });
    await db()
      .insert(contacts)
      .values({ id: contact, websiteId: site, status: 'customer', name: 'Sam', note: `Partner: ${email}` });
    const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    await web.get(customersOf(site));
    const r = await web.post(`${customersOf(site)}/erase`, { email });
    expect(r.status).toBe(303);

    const [l] = await db().select().from(leads).where(eq(leads.id, lead));
    expect(l!.note).toBe('Robin is [erased].');
    expect(l!.message).toBe(`Write to ${other} too.`);
    const [b] = await db().select().from(bookings).where(eq(bookings.id, booking));
    expect(b!.message).toBe('Bring [erased] along');
    expect(b!.note).toBe(`Also ${other}`);
    const [c] = await db().select().from(contacts).where(eq(contacts.id, contact));
    expect(c!.note).toBe('Partner: [erased]');
  });
});
