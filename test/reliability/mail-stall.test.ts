// A mail server that accepts connections and then says nothing (a stalled relay). The retry sweep,
// scheduled as the service schedules it (src/kernel/periodic.ts), must not pile up: one sweep at a
// time, so one connection at a time, however many ticks pass. And each attempt ends by the mailer's
// timeouts with its row back in `queued` for a later retry, never left `sending` until its lease runs
// out (which would make it `uncertain`, never retried, though nothing was accepted).
import { type Socket, createServer } from 'node:net';
import { inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { mailOutbox } from '../../src/db/schema.js';
import { createMailer } from '../../src/domain/mail/mailer.js';
import { queueMail } from '../../src/domain/mail/outbox.js';
import { every } from '../../src/kernel/periodic.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { until } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';

let database: Database;
const sockets = new Set<Socket>();
let open = 0;
let mostOpen = 0;
let accepted = 0;
const stalled = createServer((socket) => {
  accepted += 1;
  open += 1;
  // Counted 20 ms after the connection arrives: a client's close (its FIN) goes out on a later turn of
  // its event loop than the call that closed it, so the next attempt's connection can arrive first.
  // A pile-up keeps connections open together for the whole greeting timeout (800 ms).
  setTimeout(() => {
    mostOpen = Math.max(mostOpen, open);
  }, 20);
  sockets.add(socket);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    open -= 1;
    sockets.delete(socket);
  });
});
let port = 0;

beforeAll(async () => {
  database = await testDatabase();
  port = await freePort();
  await new Promise<void>((r) => stalled.listen(port, '127.0.0.1', r));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => stalled.close(() => r()));
});

describe('a stalled mail server', () => {
  it('gets one connection at a time from the retry sweep, and each attempt ends queued for a retry', async () => {
    // A clock long past: no row but these two is due to this sweep, whatever else the database holds.
    const clock = () => new Date(Date.UTC(2001, 0, 1));
    const tag = uniqueTag();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(
        await queueMail(
          database.db,
          { websiteId: null, kind: 'lead', to: `stall${i}+${tag}@example.com`, subject: 'Lead', text: 'x' },
          clock(),
        ),
      );
    const mailer = createMailer({
      db: database.db,
      log: pino({ level: 'silent' }),
      clock,
      // The greeting never comes; the URL's own timeout (in ms) keeps the test short.
      smtpUrl: `smtp://127.0.0.1:${port}?greetingTimeout=800`,
      from: 'Sitegate <mail@sitegate.test>',
    });
    let skipped = 0;
    const sweep = every(10, () => mailer.deliverDue(), {
      onError: (err) => expect.fail(String(err)),
      onSkip: () => {
        skipped += 1;
      },
    });
    try {
      // Once the first attempt is connected, 300 ms, 30 ticks, while its row waits for the greeting:
      // without the one-at-a-time rule each tick starts a sweep that claims the next due row and
      // opens a connection of its own. (The wait for the first connection is bounded, not timed: a
      // busy machine may take a while to make it.)
      await until(() => accepted >= 1 || null, 200);
      await new Promise((r) => setTimeout(r, 300));
      expect(accepted).toBe(1);
      expect(mostOpen).toBe(1);
      expect(skipped).toBeGreaterThanOrEqual(10);
    } finally {
      sweep.stop();
    }
    // The sweep in progress ends by the greeting timeout, row after row.
    await sweep.idle();
    mailer.close();
    expect(accepted).toBe(2);
    expect(mostOpen).toBe(1);
    const rows = await database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'queued', attempts: 1 });
      expect(row.lastError).toBeTruthy();
      // Back off a minute from the attempt, not left under a lease.
      expect(row.nextAttemptAt.getTime()).toBe(clock().getTime() + 60_000);
    }
  });
});
