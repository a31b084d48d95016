// Visitor text never reaches the logs (R-SEC-3): a spam drop
// is logged by website and reason, and a database failure while storing a submission — whose error
// message quotes the statement's parameters — is logged by its code alone.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, expect, it } from 'vitest';
import { visitorKeyCache } from '../../src/domain/analytics/visitor-keys.js';
import type { Services } from '../../src/domain/context.js';
import { formToken } from '../../src/domain/crm/form-guard.js';
import { submit } from '../../src/domain/crm/submission.js';
import { testDatabase } from '../helpers/db.js';

let db: Awaited<ReturnType<typeof testDatabase>>['db'];
beforeAll(async () => {
  db = (await testDatabase()).db; // a cold PGlite start belongs to the hook's budget, not the test's
});

it('logs neither the words nor the address of a visitor, for spam or for a failed write', async () => {
  const lines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  );
  const now = new Date();
  const services = { db, log, clock: () => now } as unknown as Services;
  const keys = visitorKeyCache(db);
  const deps = { services, keys, limits: { perAddress: 9, perWebsite: 9, take: async () => 0 } };
  const secret = 'Private-Words-4711';
  const visitor = { address: '127.0.77.7', userAgent: 'Mozilla/5.0 Secret-Agent-4711' };
  const token = await formToken(keys, 'site_logtest', new Date(now.getTime() - 10_000));
  const accept = {
    names: ['message'],
    parse: (f: Record<string, string>) => ({ ok: true as const, value: f.message! }),
    // A real database error that quotes the visitor's text (PostgreSQL and PGlite alike).
    write: async (tx: typeof db, v: string) => {
      await tx.execute(sql`select ${v}::integer`);
      throw new Error('unreachable');
    },
  };

  const spam = await submit(
    deps,
    { websiteId: 'site_logtest', fields: { message: secret, website: 'x', _t: token }, visitor },
    accept,
  );
  expect(spam).toEqual({ outcome: 'dropped', reason: 'honeypot' });
  await expect(
    submit(
      deps,
      { websiteId: 'site_logtest', fields: { message: secret, website: '', _t: token }, visitor },
      accept,
    ),
  ).rejects.toThrow('could not be stored; nothing was written');

  const all = lines.join('');
  expect(all).toContain('form submission dropped as spam');
  expect(all).toContain('form submission not stored');
  expect(all).toContain('22P02'); // invalid_text_representation: the kind of failure is kept
  for (const s of [secret, '127.0.77.7', 'Secret-Agent-4711']) expect(all).not.toContain(s);
});
