// The owner's notice of a visitor's message or booking request answers to the visitor: the email the
// SMTP server receives carries `Reply-To:` the address the visitor gave, and nothing but one valid
// address ever becomes that header.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, services } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { notifyOwners } from '../../src/domain/crm/notify-owner.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { headerOf, startSmtp } from '../helpers/smtp.js';
import { testClock } from '../plans/rail.js';
import { crowd, fillAndSend } from './visitor.js';

let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const time = testClock();
const people = crowd('127.0.47');
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    seed: false,
    clock: time.clock,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sitegate <mail@sitegate.test>' },
  });
});
afterAll(async () => {
  await people.close();
  await s?.close();
  await smtp?.close();
});
const db = () => s.sg.deps.services.db;

/** The one message to `to` that arrived after `before` messages. */
async function messageTo(to: string, before: number) {
  for (let i = 0; i < 400; i++) {
    const m = smtp.received.slice(before).find((r) => r.to.includes(to));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no message to ${to}`);
}

describe('Reply-To on the owner’s notices', () => {
  it('a contact form message: a reply goes to the visitor', async () => {
    const d = await s.seed();
    const before = smtp.received.length;
    const res = await fillAndSend(
      people.next(),
      s.url,
      `${s.url}/sites/${d.websites.main}/contact`,
      '/_forms/contact',
      { name: 'Ada Visitor', email: 'ada.visitor@example.com', phone: '', message: 'Rye on Sundays?' },
      () => time.advance(5_000),
    );
    expect(res.status).toBe(303);
    const msg = await messageTo(d.users.owner.email, before);
    expect(headerOf(msg.raw, 'Reply-To')).toBe('ada.visitor@example.com');
    // The envelope goes to the owner only: Reply-To adds no recipient.
    expect(msg.to).toEqual([d.users.owner.email]);
  });

  it('a booking request: a reply goes to the visitor', async () => {
    const d: Demo = await s.seed();
    const service = (await db().select().from(services).where(eq(services.websiteId, d.websites.main))).find(
      (r) => r.name === 'Bread workshop',
    )!;
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(
      new Date(time.clock().getTime() + 3 * 86_400_000),
    );
    const before = smtp.received.length;
    const res = await fillAndSend(
      people.next(),
      s.url,
      `${s.url}/sites/${d.websites.main}/book/${service.id}`,
      `/_forms/book/${service.id}`,
      { name: 'Bo Booker', email: 'bo.booker@example.com', note: '', date, time: '10:30' },
      () => time.advance(6_000),
    );
    expect(res.status).toBe(303);
    const msg = await messageTo(d.users.owner.email, before);
    expect(headerOf(msg.raw, 'Reply-To')).toBe('bo.booker@example.com');
  });

  it('an address that is not one valid address never becomes a header', async () => {
    const d = await s.seed();
    const before = smtp.received.length;
    const ids = await db().transaction((tx) =>
      notifyOwners(
        tx,
        {
          websiteId: d.websites.main,
          siteName: 'Harbor Bakery',
          kind: 'lead',
          subject: 'New message from your website Harbor Bakery',
          lines: ['Hello'],
          replyTo: 'ada@example.com\r\nBcc: eve@example.com',
        },
        time.clock(),
      ),
    );
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, ids[0]!));
    expect(row!.replyTo).toBeNull();
    await s.sg.deps.services.mail!.deliverNow(ids);
    const msg = await messageTo(d.users.owner.email, before);
    expect(headerOf(msg.raw, 'Reply-To')).toBeNull();
    expect(msg.raw).not.toMatch(/eve@example\.com/);
    expect(msg.to).toEqual([d.users.owner.email]);
  });
});
