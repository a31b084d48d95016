// What one SMTP attempt leaves in the outbox (src/net/smtp.ts, src/domain/mail/mailer.ts).
// At most once per row (docs/reliability.md), where the mail server's answer is lost: once the server
// has the message's final "." line it may have accepted the message, so a connection dropped then, or a
// server silent then, leaves the row `uncertain` and it is never sent again. A failure before that
// line, or a refusal after it, accepted nothing: the row goes back to `queued` for a retry.
// One sweep's rows share a connection, and a failure closes it (the next row opens another).
// And SMTP_URL's user:pass signs in (the right ones send, wrong ones are a failed attempt), smtps://
// speaks TLS from the start, and smtp:// upgrades when the server offers STARTTLS.
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { mailOutbox } from '../../src/db/schema.js';
import { createMailer } from '../../src/domain/mail/mailer.js';
import { queueMail } from '../../src/domain/mail/outbox.js';
import { smtpSender } from '../../src/net/smtp.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { startScriptedSmtp, startSmtp } from '../helpers/smtp.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** A scripted server (test/helpers/smtp.ts), closed after the file. */
async function scripted(...args: Parameters<typeof startScriptedSmtp>) {
  const server = await startScriptedSmtp(...args);
  servers.push(server);
  return server;
}

/** A mailer on the test database sending to `smtpUrl`, its clock `clock`. */
const mailerFor = (smtpUrl: string, clock: () => Date) =>
  createMailer({
    db: database.db,
    log: pino({ level: 'silent' }),
    clock,
    smtpUrl,
    from: 'Sitegate <mail@sitegate.test>',
  });

/** A lead notification to `to` in the outbox, due at `at`. */
const queueLead = (to: string, at: Date) =>
  queueMail(database.db, { websiteId: null, kind: 'lead', to, subject: 'Lead', text: 'Hello' }, at);

/**
 * One row queued at `start` (long past, so no other row of the shared database is due beside it) and
 * sent to `smtpUrl`; returns the row after the attempt and a retry sweep at a later time.
 */
async function attempt(smtpUrl: string, start: Date) {
  let now = start;
  const mailer = mailerFor(smtpUrl, () => now);
  const id = await queueLead(`lost+${uniqueTag()}@example.com`, start);
  await mailer.deliverNow([id]);
  const read = async () => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
  const row = await read();
  return {
    row,
    /** The retry sweep at `later`, then the row. */
    async sweepAt(later: Date) {
      now = later;
      const sent = await mailer.deliverDue();
      mailer.close();
      return { sent, row: await read() };
    },
  };
}

describe('a mail server whose answer is lost', () => {
  it('dropped the connection after the message’s end: uncertain, and no retry sends it again', async () => {
    const start = new Date(Date.UTC(1999, 0, 1));
    const server = await scripted('dot', 'drop');
    const { row, sweepAt } = await attempt(server.url, start);
    expect(server.stats.messages).toBe(1);
    expect(row).toMatchObject({ status: 'uncertain', attempts: 1, sentAt: null });
    expect(row.lastError).toMatch(/no answer after the message was sent/);
    // A sweep well past any backoff: the row is not taken, no connection is opened, nothing is resent.
    const after = await sweepAt(new Date(start.getTime() + 3_600_000));
    expect(after.sent).toBe(0);
    expect(after.row.status).toBe('uncertain');
    expect(server.stats).toEqual({ connections: 1, messages: 1 });
  });

  it('stayed silent after the message’s end until the socket timeout: uncertain', async () => {
    const server = await scripted('dot', 'silent');
    const { row } = await attempt(`${server.url}?socketTimeout=1000`, new Date(Date.UTC(1998, 0, 1)));
    expect(server.stats.messages).toBe(1);
    expect(row).toMatchObject({ status: 'uncertain', attempts: 1 });
    expect(row.lastError).toMatch(/ETIMEDOUT/);
  });

  it('dropped the connection before the message was sent: queued for a retry', async () => {
    const start = new Date(Date.UTC(1997, 0, 1));
    const server = await scripted('rcpt', 'drop');
    const { row } = await attempt(server.url, start);
    expect(server.stats.messages).toBe(0);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, sentAt: null });
    expect(row.lastError).toBe('ECONNECTION');
    expect(row.nextAttemptAt.getTime()).toBe(start.getTime() + 60_000);
  });

  it('refused after the message’s end (451): nothing was accepted, so queued for a retry', async () => {
    const server = await scripted('dot', 'refuse');
    const { row } = await attempt(server.url, new Date(Date.UTC(1996, 0, 1)));
    expect(server.stats.messages).toBe(1);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'EMESSAGE' });
  });

  it('answered 250 after the message’s end: sent', async () => {
    const server = await scripted('dot', 'accept');
    const { row } = await attempt(server.url, new Date(Date.UTC(1995, 0, 1)));
    expect(server.stats.messages).toBe(1);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  });
});

describe('SMTP_URL with user:pass', () => {
  const login = { user: 'relay-user', pass: 'p@ss:word' };

  it('signs in with them and sends', async () => {
    const server = await startSmtp({ login });
    servers.push(server);
    const url = server.url.replace('//', `//${login.user}:${encodeURIComponent(login.pass)}@`);
    const { row } = await attempt(url, new Date(Date.UTC(1994, 0, 1)));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  it('refused by the server (wrong password): nothing sent, queued for a retry', async () => {
    const server = await startSmtp({ login });
    servers.push(server);
    const url = server.url.replace('//', `//${login.user}:wrong@`);
    const { row } = await attempt(url, new Date(Date.UTC(1993, 0, 1)));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'EAUTH' });
    expect(server.received).toHaveLength(0);
  });

  it('without them, a server that requires signing in refuses the message: queued, nothing sent', async () => {
    const server = await startSmtp({ login });
    servers.push(server);
    const { row } = await attempt(server.url, new Date(Date.UTC(1992, 0, 1)));
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(server.received).toHaveLength(0);
  });
});

describe('TLS', () => {
  // smtp-server's own test certificate is self-signed: the URL's tls.* options reach the TLS socket.
  const trustTestCertificate = '?tls.rejectUnauthorized=false';

  it('smtps:// speaks TLS from the first byte', async () => {
    const server = await startSmtp({ tls: 'implicit' });
    servers.push(server);
    expect(server.url).toMatch(/^smtps:/);
    const { row } = await attempt(server.url + trustTestCertificate, new Date(Date.UTC(1991, 0, 1)));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(server.received.map((m) => m.secure)).toEqual([true]);
  });

  it('smtp:// upgrades with STARTTLS when the server offers it, and signs in over it', async () => {
    const login = { user: 'relay-user', pass: 'secret' };
    const server = await startSmtp({ tls: 'starttls', login });
    servers.push(server);
    const url = server.url.replace('//', `//${login.user}:${login.pass}@`);
    const { row } = await attempt(url + trustTestCertificate, new Date(Date.UTC(1990, 0, 1)));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(server.received.map((m) => m.secure)).toEqual([true]);
  });

  it('refuses a certificate it cannot verify unless told to: queued, nothing sent', async () => {
    const server = await startSmtp({ tls: 'implicit' });
    servers.push(server);
    const { row } = await attempt(server.url, new Date(Date.UTC(1989, 0, 1)));
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(server.received).toHaveLength(0);
  });
});

describe('a sweep of several rows', () => {
  /** `n` rows queued at `start`, a mailer whose clock stays there, and the rows' states after a sweep. */
  async function sweep(smtpUrl: string, start: Date, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await queueLead(`batch${i}+${uniqueTag()}@example.com`, start));
    const mailer = mailerFor(smtpUrl, () => start);
    const sent = await mailer.deliverDue();
    mailer.close();
    const rows = await database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r.status]));
    return { sent, statuses: ids.map((id) => byId.get(id)) };
  }

  it('sends them over one connection', async () => {
    const server = await startSmtp();
    servers.push(server);
    const { sent, statuses } = await sweep(server.url, new Date(Date.UTC(1988, 0, 1)), 5);
    expect(sent).toBe(5);
    expect(statuses).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(server.received).toHaveLength(5);
    expect(server.stats.connections).toBe(1);
  });

  it('after a refusal opens a new connection for the next row; the refused one is queued', async () => {
    const server = await startSmtp();
    servers.push(server);
    server.failNext(1); // the first row's recipient (by id): 451
    const { sent, statuses } = await sweep(server.url, new Date(Date.UTC(1987, 0, 1)), 4);
    expect(sent).toBe(3);
    expect(statuses.sort()).toEqual(['queued', 'sent', 'sent', 'sent']);
    expect(server.received).toHaveLength(3);
    expect(server.stats.connections).toBe(2);
  });

  it('opens the next connection once one has carried its most messages', async () => {
    const server = await startSmtp();
    servers.push(server);
    const smtp = smtpSender(server.url, {}, 2).session();
    try {
      for (let i = 0; i < 5; i++)
        await smtp.send({ from: 'mail@sitegate.test', to: `cap${i}@example.com`, subject: 'Cap', text: 'x' });
    } finally {
      smtp.end();
    }
    expect(server.received.map((m) => m.to[0])).toEqual([0, 1, 2, 3, 4].map((i) => `cap${i}@example.com`));
    expect(server.stats.connections).toBe(3);
  });

  /** Two messages through one session; between them the relay drops its connections. */
  async function acrossADrop(pauseMs: number) {
    const server = await scripted('dot', 'accept');
    const smtp = smtpSender(server.url, {}).session();
    const message = (to: string) => ({ from: 'mail@sitegate.test', to, subject: 'Hello', text: 'x' });
    try {
      await smtp.send(message('first@example.com'));
      server.dropAll();
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      await smtp.send(message('second@example.com'));
    } finally {
      smtp.end();
    }
    return server.stats;
  }

  it('a connection dropped just before the next message (not yet seen closed): that message is sent once, on a new one', async () => {
    expect(await acrossADrop(0)).toEqual({ connections: 2, messages: 2 });
  });

  it('a connection the relay closed while idle (its idle timeout) is replaced, and the next message is sent once', async () => {
    expect(await acrossADrop(50)).toEqual({ connections: 2, messages: 2 });
  });

  it('a message the relay may have taken on a reused connection is not tried again on a new one', async () => {
    // The first row is accepted; the connection then drops after the second row's final line. That row
    // may have arrived: the stale-connection retry must not send it again.
    const server = await scripted('dot', 'drop', 1);
    const { sent, statuses } = await sweep(server.url, new Date(Date.UTC(1986, 0, 1)), 2);
    expect(sent).toBe(1);
    expect(statuses.sort()).toEqual(['sent', 'uncertain']);
    expect(server.stats).toEqual({ connections: 1, messages: 2 });
  });

  it('a first message that fails on a new connection is not tried again at once', async () => {
    const server = await scripted('rcpt', 'drop');
    const smtp = smtpSender(server.url, {}).session();
    try {
      await expect(
        smtp.send({ from: 'mail@sitegate.test', to: 'once@example.com', subject: 'One', text: 'x' }),
      ).rejects.toMatchObject({ name: 'SmtpFailure', maybeAccepted: false });
    } finally {
      smtp.end();
    }
    expect(server.stats).toEqual({ connections: 1, messages: 0 });
  });
});
