// Mail of the rail (R-REL-2): invitations and documents leave through the outbox written in the
// action's transaction and reach a real SMTP server; neither the link nor the document reaches the
// caller. Without SMTP the outbox keeps the message and the log names it without personal data;
// failed deliveries are retried by the background job.
import { Writable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections, documents, mailOutbox, pendingActions, websites } from '../../src/db/schema.js';
import { timeZoneOf } from '../../src/domain/crm/booking-request.js';
import { createMailer } from '../../src/domain/mail/mailer.js';
import { queueMail } from '../../src/domain/mail/outbox.js';
import type { Db } from '../../src/db/client.js';
import { until } from '../helpers/process.js';
import { type TestServer, runJob, startTestServer } from '../helpers/server.js';
import { headerOf, startScriptedSmtp, startSmtp } from '../helpers/smtp.js';
import { fixture, prepareAndApprove, testClock } from './rail.js';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
const time = testClock();
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    seed: false,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sitegate <mail@sitegate.test>' },
    clock: time.clock,
  });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

const db = () => s.sg.deps.services.db;

type OutboxRow = typeof mailOutbox.$inferSelect;
/** The outbox row sent to `to` once `ready` holds for it: the mailer works after the answer (bounded). */
const outboxRow = (on: Db, to: string, ready: (row: OutboxRow) => boolean): Promise<OutboxRow> =>
  until(
    async () => {
      const [row] = await on.select().from(mailOutbox).where(eq(mailOutbox.to, to));
      return row && ready(row) ? row : null;
    },
    100,
    () => `(outbox row to ${to})`,
  );

describe('with SMTP', () => {
  it('a plan email says in its subject what is asked, through which connection and until when', async () => {
    const f = await fixture(s);
    const owner = f.demo.users.owner.email;
    const subjects: string[] = [];
    for (const tool of ['prepare_publish', 'prepare_unpublish']) {
      const before = smtp.received.length;
      const r = await s.call(f.demo.tokens.all, tool);
      expect(r.error).toBeUndefined();
      const [plan] = await db()
        .select()
        .from(pendingActions)
        .where(eq(pendingActions.id, r.data!.planId as string));
      await until(
        async () => smtp.received.slice(before).find((m) => m.to.includes(owner)) ?? null,
        100,
        () => `(the ${tool} email)`,
      );
      const msg = smtp.received.slice(before).find((m) => m.to.includes(owner))!;
      const [site] = await db().select().from(websites).where(eq(websites.id, f.demo.websites.main));
      const [conn] = await db().select().from(connections).where(eq(connections.id, f.demo.connections.all));
      const until_ = new Intl.DateTimeFormat('en-GB', {
        timeZone: timeZoneOf(site!.config),
        timeStyle: 'short',
      }).format(plan!.expiresAt);
      const subject = headerOf(msg.raw, 'Subject')!;
      expect(subject).toContain(`through “${conn!.name}”`);
      expect(subject.endsWith(`, until ${until_}`)).toBe(true);
      subjects.push(subject);
    }
    expect(subjects[0]).toMatch(/^Approve\? Publish Harbor Bakery through/);
    expect(subjects[1]).toMatch(/^Approve\? Take Harbor Bakery offline through/);
  });

  it('delivers the invitation with its link to the invited address; the tool result holds no link', async () => {
    const f = await fixture(s);
    const to = `invitee+${f.demo.companyId.toLowerCase()}@example.com`;
    const planId = await prepareAndApprove(s, f, 'prepare_grant_access', { email: to, level: 'viewer' });
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.ok).toBe(true);
    // The answer leaves before the mail server has accepted anything: queued, never "invited/sent".
    expect(r.data?.result).toMatchObject({ status: 'queued', level: 'viewer' });
    expect(r.data?.result).not.toHaveProperty('invited');
    const msg = await smtp.waitFor(to);
    const link = /\/invitations\/([A-Za-z0-9_-]{40,})/.exec(msg.raw.replace(/=\r?\n/g, ''));
    expect(link).not.toBeNull();
    expect(r.text).not.toContain(link![1]!);
    expect(r.text).not.toMatch(/\/invitations\//);
    // The SMTP server has the message before the mailer records the delivery: wait (bounded) for it.
    const row = await outboxRow(db(), to, (r) => r.status === 'sent');
    expect(row).toMatchObject({ kind: 'invitation', status: 'sent', attempts: 1 });
    // A stable Message-ID, the outbox row's own, so a receiver can recognise a repeat.
    expect(msg.raw).toMatch(new RegExp(`Message-ID: <${row!.id}@sitegate\\.test>`, 'i'));
  });

  it('delivers the document (body and attachment) to its recipient; the tool result holds neither', async () => {
    const f = await fixture(s);
    const to = `pat+${f.demo.companyId.toLowerCase()}@example.com`;
    const [inv] = await db()
      .update(documents)
      .set({ recipientEmail: to })
      .where(and(eq(documents.websiteId, f.demo.websites.main), eq(documents.number, 'INV-2026-014')))
      .returning();
    const planId = await prepareAndApprove(s, f, 'prepare_send_document', { documentId: inv!.id });
    // With a mail server the review carries no "nothing leaves" note.
    const review = await f.owner.get(`/approvals/${planId}`);
    expect(review.body).toContain('The email that will be sent');
    expect(review.body).not.toContain('id="no-mail-server"');
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.ok).toBe(true);
    const msg = await smtp.waitFor(to);
    expect(msg.raw).toContain('Invoice INV-2026-014 from Harbor Bakery');
    expect(msg.raw).toContain('filename=INV-2026-014.html');
    expect(msg.raw).toContain('Total: EUR 100.00');
    expect(r.text).not.toContain(to);
    expect(r.text).not.toContain('Breakfast box');
  });

  it('retries a failed delivery from the background job until it goes through', async () => {
    const f = await fixture(s);
    const to = `retry+${f.demo.companyId.toLowerCase()}@example.com`;
    const planId = await prepareAndApprove(s, f, 'prepare_grant_access', { email: to, level: 'editor' });
    // The owner's approval request went first; the next delivery (the invitation) fails once.
    await smtp.waitFor(f.demo.users.owner.email);
    smtp.failNext(1);
    expect((await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId })).ok).toBe(true);
    const first = await outboxRow(db(), to, (r) => r.attempts >= 1 && r.lastError !== null);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);
    time.advance(5 * 60_000);
    await runJob(s, 'mail');
    await smtp.waitFor(to);
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.to, to));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('one sweep delivers a backlog longer than its batch, oldest first', async () => {
    // More due rows than one batch (20). On PostgreSQL other files' rows are due too: a sweep that
    // stopped after one batch, or took rows in no order, left these waiting (CI: 'no message arrived').
    const tag = (await fixture(s)).demo.companyId.toLowerCase();
    const base = time.clock().getTime();
    const ids: string[] = [];
    for (let i = 0; i < 45; i++)
      ids.push(
        await queueMail(
          db(),
          {
            websiteId: null,
            kind: 'lead',
            to: `backlog${i}+${tag}@example.com`,
            subject: 'New lead',
            text: 'x',
          },
          new Date(base - (45 - i) * 1000),
        ),
      );
    const before = smtp.received.length;
    await runJob(s, 'mail');
    const ours = smtp.received
      .slice(before)
      .flatMap((m) => m.to)
      .filter((a) => a.endsWith(`+${tag}@example.com`));
    expect(ours).toEqual(ids.map((_, i) => `backlog${i}+${tag}@example.com`));
    const rows = await db().select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'sent'));
  });
});

describe('a relay that drops the connection once it has the message', () => {
  it('the owner sees the invitation as not confirmed, and the mail job does not send it again', async () => {
    const relay = await startScriptedSmtp('dot', 'drop');
    const t = await startTestServer({
      seed: false,
      env: { SMTP_URL: relay.url, MAIL_FROM: 'Sitegate <mail@sitegate.test>' },
      clock: time.clock,
    });
    try {
      const f = await fixture(t);
      const to = `dropped+${f.demo.companyId.toLowerCase()}@example.com`;
      const planId = await prepareAndApprove(t, f, 'prepare_grant_access', { email: to, level: 'viewer' });
      expect((await t.call(f.demo.tokens.all, 'confirm_pending_action', { planId })).ok).toBe(true);
      const tdb = t.sg.deps.services.db;
      const row = await outboxRow(tdb, to, (r) => r.status === 'uncertain');
      expect(row).toMatchObject({ status: 'uncertain', attempts: 1, sentAt: null });
      const seen = relay.stats.messages;
      const home = await f.owner.get('/');
      expect(home.body).toMatch(
        /data-mail-state="uncertain"[^>]*>Not confirmed: [^<]*may or may not have arrived/,
      );
      // Hours later the background job leaves it alone: the relay saw the message once.
      time.advance(3 * 60 * 60_000);
      await runJob(t, 'mail');
      const [after] = await tdb.select().from(mailOutbox).where(eq(mailOutbox.to, to));
      expect(after).toMatchObject({ status: 'uncertain', attempts: 1 });
      // The relay saw nothing more (the owner's approval request, also mailed through it, came before).
      expect(relay.stats.messages).toBe(seen);
    } finally {
      await t.close();
      await relay.close();
    }
  });
});

describe('without SMTP', () => {
  it('keeps the message in the outbox and logs it by id only, without address or body', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const mailer = createMailer({
      db: db(),
      log: pino(sink),
      clock: () => new Date(),
      from: 'x@sitegate.test',
    });
    expect(mailer.enabled).toBe(false);
    const id = await queueMail(
      db(),
      {
        websiteId: null,
        kind: 'document',
        to: 'secret.person@example.com',
        subject: 'Invoice',
        text: 'Body 123',
      },
      new Date(),
    );
    await mailer.deliverNow([id]);
    expect(await mailer.deliverDue()).toBe(0);
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'queued', text: 'Body 123', to: 'secret.person@example.com' });
    const log = lines.join('');
    expect(log).toContain(id);
    expect(log).not.toMatch(/secret\.person|Body 123|Invoice/);
  });
});
