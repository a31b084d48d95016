// The contact form's spam defences: a honeypot, a signed minimum fill time, limits
// per sender address and per website, and a body cap. Each refuses — and writes nothing: no lead, no
// owner email, no analytics event. Driven over real HTTP from distinct loopback addresses.
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';
import { type Visitor, crowd, fillAndSend, formOf, writesOf } from './visitor.js';

let s: TestServer;
const time = testClock();
const people = crowd('127.0.21');
const someone = () => people.next();

beforeAll(async () => {
  s = await startTestServer({
    seed: false,
    clock: time.clock,
    env: { FORM_LIMIT_PER_ADDRESS: '3', FORM_LIMIT_PER_WEBSITE: '5' },
  });
});
afterAll(async () => {
  await people.close();
  await s?.close();
});

const db = () => s.sg.deps.services.db;
const good = {
  name: 'Ada Visitor',
  email: 'ada@example.com',
  phone: '',
  message: 'Do you deliver on Sundays?',
};

async function openForm(v: Visitor, site: string) {
  const page = await v.get(`${s.url}/sites/${site}/contact`);
  expect(page.status).toBe(200);
  return formOf(page.html, '/_forms/contact');
}

/** Opens the contact page, waits `wait` ms of the server's clock, and sends the form. */
const send = (v: Visitor, site: string, fields: Record<string, string>, wait = 5_000) =>
  fillAndSend(v, s.url, `${s.url}/sites/${site}/contact`, '/_forms/contact', fields, () =>
    time.advance(wait),
  );

/** Runs `act` on a fresh site and checks that nothing was written by it. */
async function writesNothing(act: (site: string) => Promise<void>) {
  const site = (await s.seed()).websites.main;
  const before = await writesOf(db(), site);
  await act(site);
  expect(await writesOf(db(), site)).toEqual(before);
  return site;
}

describe('a genuine message', () => {
  it('is accepted and becomes one lead (the control for every refusal below)', async () => {
    const site = (await s.seed()).websites.main;
    const before = await writesOf(db(), site);
    const res = await send(someone(), site, good);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/sites/${site}/_sent/contact`);
    const after = await writesOf(db(), site);
    expect(after.leads).toBe(before.leads + 1);
    expect(after.mail).toBe(before.mail + 1);
    expect(after.submissions).toBe(before.submissions + 1);
  });
});

describe('spam defences refuse and write nothing', () => {
  it('honeypot: a filled hidden field looks accepted to the sender, but nothing is stored', async () => {
    await writesNothing(async (site) => {
      const res = await send(someone(), site, { ...good, website: 'https://cheap-pills.example' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/sites/${site}/_sent/contact`);
    });
  });

  it('a forged or missing fill-time token is dropped the same way', async () => {
    await writesNothing(async (site) => {
      const v = someone();
      const f = await openForm(v, site);
      time.advance(5_000);
      const forged = `${(time.clock().getTime() - 60_000).toString(36)}.${'A'.repeat(32)}`;
      expect((await v.post(s.url + f.action, { ...f.hidden, _t: forged, ...good })).status).toBe(303);
      const { _t, ...noToken } = f.hidden;
      expect(_t).toBeTruthy();
      expect((await v.post(s.url + f.action, { ...noToken, ...good })).status).toBe(303);
    });
  });

  it('too fast: sent sooner than a person can type, it is shown again with the words kept', async () => {
    await writesNothing(async (site) => {
      const res = await send(someone(), site, good, 800);
      expect(res.status).toBe(422);
      expect(res.html).toContain('quicker than anyone can type');
      expect(res.html).toContain('Do you deliver on Sundays?</textarea>');
      expect(res.html).toContain('value="ada@example.com"');
    });
  });

  it('invalid fields: each error is shown beside its field and nothing is stored', async () => {
    await writesNothing(async (site) => {
      const res = await send(someone(), site, { ...good, name: '  ', email: 'not-an-address' });
      expect(res.status).toBe(422);
      const id = /id="(contact-[^"]+)-name"/.exec(res.html)![1]!;
      expect(res.html).toContain(`<a href="#${id}-name">Please enter your name.</a>`);
      expect(res.html).toMatch(
        new RegExp(`id="${id}-email" [^>]*aria-describedby="${id}-email-error" aria-invalid="true"`),
      );
      expect(res.html).toContain(
        `id="${id}-email-error"><span class="visually-hidden">Error: </span>Please enter an email address like name@example.com.`,
      );
    });
  });

  it('per-address limit: the fourth message from one address within 10 minutes is refused', async () => {
    const site = (await s.seed()).websites.main;
    const v = someone();
    for (let i = 0; i < 3; i++)
      expect((await send(v, site, { ...good, message: `Question ${i}` })).status).toBe(303);
    const before = await writesOf(db(), site);
    const res = await send(v, site, { ...good, message: 'Question 4' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.html).toContain('Too many messages came from your network');
    expect(res.html).toContain('Question 4</textarea>');
    expect(await writesOf(db(), site)).toEqual(before);
    // Another address may still write to this site.
    expect((await send(someone(), site, good)).status).toBe(303);
  });

  it('per-website limit: past 5 messages an hour the site takes no more, from any address', async () => {
    const site = (await s.seed()).websites.main;
    const [a, b, c] = [someone(), someone(), someone()];
    for (const v of [a, a, a, b, b]) expect((await send(v, site, good)).status).toBe(303);
    const before = await writesOf(db(), site);
    const res = await send(c, site, good);
    expect(res.status).toBe(429);
    expect(await writesOf(db(), site)).toEqual(before);
    // The limit is the site's: another website still receives messages from the same address.
    const other = (await s.seed()).websites.main;
    expect((await send(c, other, good)).status).toBe(303);
  });

  it('oversized: a body over 64 KB is refused before it is read (declared or streamed)', async () => {
    await writesNothing(async (site) => {
      const v = someone();
      const f = await openForm(v, site);
      time.advance(5_000);
      const big = await v.post(s.url + f.action, { ...f.hidden, ...good, message: 'x'.repeat(70_000) });
      expect(big.status).toBe(413);
      expect(big.html).toContain('too large to send');
      // Streamed without a length: the cap counts bytes as they arrive and stops at the limit.
      let sent = 0;
      const chunk = new TextEncoder().encode(`message=${'y'.repeat(16_384)}`);
      const body = new ReadableStream({
        pull(ctl) {
          if (sent >= 4 * 1024 * 1024) return ctl.close();
          sent += chunk.length;
          ctl.enqueue(chunk);
        },
      });
      const res = await v.raw(s.url + f.action, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(413);
      await res.text();
      expect(sent).toBeLessThan(4 * 1024 * 1024);
    });
  });

  it('other shapes: multipart is refused; an unknown section or an unpublished site is not found', async () => {
    const demo = await s.seed();
    await writesNothing(async (site) => {
      const v = someone();
      const f = await openForm(v, site);
      time.advance(5_000);
      const form = new FormData();
      for (const [k, val] of Object.entries({ ...f.hidden, ...good })) form.set(k, val);
      const multipart = await v.raw(s.url + f.action, { method: 'POST', body: form });
      expect(multipart.status).toBe(415);
      const unknown = await v.post(s.url + f.action, { ...f.hidden, ...good, section: 'sec_doesnotexist12' });
      expect(unknown.status).toBe(404);
    });
    const v = someone();
    const f = await openForm(v, demo.websites.main);
    time.advance(5_000);
    // The events site was never published: its form address leads nowhere.
    const before = await writesOf(db(), demo.websites.events);
    const res = await v.post(`${s.url}/sites/${demo.websites.events}/_forms/contact`, {
      ...f.hidden,
      ...good,
    });
    expect(res.status).toBe(404);
    expect(await writesOf(db(), demo.websites.events)).toEqual(before);
  });

  // Last: it moves the server's clock by a day.
  it('expired: a form left open for more than a day is shown again, nothing stored', async () => {
    await writesNothing(async (site) => {
      const res = await send(someone(), site, good, 25 * 3_600_000);
      expect(res.status).toBe(422);
      expect(res.html).toContain('open for a long time');
    });
  });
});
