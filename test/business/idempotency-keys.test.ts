// The idempotency key's rules on their own (src/domain/idempotency/keys.ts), without an HTTP server:
// a repeat that finds the first call still running waits for its answer, and past a bounded wait is
// told to call again; a claim whose process died is taken over after its lease, by the same request
// only; a failure gives the key back, in a statement of its own or by the transaction's rollback.
// Over the MCP wire: test/mcp/idempotency.test.ts; between processes: test/reliability/idempotency-race.test.ts.
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { idempotencyKeys } from '../../src/db/schema.js';
import {
  IDEMPOTENCY_LEASE_MS,
  type KeyedCall,
  eraseStoredAnswers,
  runOnce,
} from '../../src/domain/idempotency/keys.js';
import { Refusal } from '../../src/kernel/errors.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { until } from '../helpers/process.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
const db = () => database.db;

const call = (input: Record<string, unknown> = { title: 'Menu' }): KeyedCall => ({
  connectionId: `conn_${uniqueTag()}`,
  key: `key-${uniqueTag()}`,
  tool: 'create_page',
  input,
  websiteId: `site_${uniqueTag()}`,
});
const rowOf = async (c: KeyedCall) =>
  (await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.connectionId, c.connectionId)))[0];
const realClock = () => new Date();
const own = { clock: realClock, inTransaction: false };

/** Work that finishes only when told: a first call still running. */
function pending<T>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((r) => {
    finish = r;
  });
  return { work: () => done.then(() => value), finish };
}

const refusalCode = (p: Promise<unknown>) =>
  p.then(
    () => 'ran',
    (err) => (err instanceof Refusal ? err.code : String(err)),
  );

it('a repeat that finds the first call running waits for its answer, and does not run', async () => {
  const c = call();
  const first = pending({ pageId: 'page_1' });
  const running = runOnce(db(), c, own, first.work);
  await until(async () => (await rowOf(c))?.status === 'running');
  let looks = 0;
  const repeat = runOnce(
    db(),
    c,
    {
      clock: () => {
        looks += 1;
        return new Date();
      },
      inTransaction: false,
      wait: { polls: 10_000, everyMs: 5 },
    },
    async () => ({ pageId: 'page_2' }),
  );
  // The repeat has looked, found the claim running, and looks again: only now does the first finish.
  await until(() => looks >= 2);
  first.finish();
  expect(await running).toEqual({ data: { pageId: 'page_1' }, replayed: false });
  expect(await repeat).toEqual({ data: { pageId: 'page_1' }, replayed: true, targets: [] });
  expect(await rowOf(c)).toMatchObject({ status: 'done', result: '{"pageId":"page_1"}' });
});

it('a repeat that waited its bounded while is told to call again (conflict), and nothing ran', async () => {
  const c = call();
  const first = pending({ pageId: 'page_1' });
  const running = runOnce(db(), c, own, first.work);
  await until(async () => (await rowOf(c))?.status === 'running');
  let ran = false;
  const code = await refusalCode(
    runOnce(db(), c, { ...own, wait: { polls: 2, everyMs: 1 } }, async () => {
      ran = true;
    }),
  );
  expect(code).toBe('conflict');
  expect(ran).toBe(false);
  first.finish();
  await running;
});

it('a claim whose process died is taken over once its lease ran out, by the same request only', async () => {
  const c = call();
  // The dead call: claimed past its lease and never finished (its work is released only at the end).
  const dead = pending({ pageId: 'page_dead' });
  const past = () => new Date(Date.now() - IDEMPOTENCY_LEASE_MS - 60_000);
  const deadCall = runOnce(db(), c, { clock: past, inTransaction: false }, dead.work);
  await until(async () => (await rowOf(c))?.status === 'running');

  // Other arguments never take it over: the dead call may have done its work.
  const other = await refusalCode(runOnce(db(), { ...c, input: { title: 'Other' } }, own, async () => 'x'));
  expect(other).toBe('idempotency_conflict');

  const retry = await runOnce(db(), c, own, async () => ({ pageId: 'page_retry' }));
  expect(retry).toEqual({ data: { pageId: 'page_retry' }, replayed: false });
  // The dead call's late answer does not overwrite the one that took the key over.
  dead.finish();
  await deadCall;
  expect(await runOnce(db(), c, own, async () => ({ pageId: 'never' }))).toEqual({
    data: { pageId: 'page_retry' },
    replayed: true,
    targets: [],
  });
});

it('a claim within its lease is not taken over', async () => {
  const c = call();
  const first = pending({ pageId: 'page_1' });
  const running = runOnce(db(), c, own, first.work);
  await until(async () => (await rowOf(c))?.status === 'running');
  const later = () => new Date(Date.now() + IDEMPOTENCY_LEASE_MS - 60_000);
  const code = await refusalCode(
    runOnce(db(), c, { clock: later, inTransaction: false, wait: { polls: 1, everyMs: 1 } }, async () => 'x'),
  );
  expect(code).toBe('conflict');
  first.finish();
  await running;
});

it('a failure gives the key back: deleted in its own statement, or rolled back with the transaction', async () => {
  const c = call();
  const boom = () => Promise.reject(new Error('provider outage'));
  await expect(runOnce(db(), c, own, boom)).rejects.toThrow('provider outage');
  expect(await rowOf(c)).toBeUndefined();
  expect(await runOnce(db(), c, own, async () => 1)).toEqual({ data: 1, replayed: false });

  const t = call();
  const inTx = { clock: realClock, inTransaction: true };
  await expect(db().transaction((tx) => runOnce(tx, t, inTx, boom))).rejects.toThrow('provider outage');
  expect(await rowOf(t)).toBeUndefined();
  await db().transaction((tx) => runOnce(tx, t, inTx, async () => ({ ok: 1 })));
  expect(await rowOf(t)).toMatchObject({ status: 'done', result: '{"ok":1}' });
});

it('a replay carries the other websites the first call was authorized on, stored with its answer', async () => {
  const c = call({ mergeIntoWebsiteId: 'site_target' });
  const first = await runOnce(db(), c, { ...own, targets: () => ['site_target'] }, async () => ({ n: 1 }));
  expect(first).toEqual({ data: { n: 1 }, replayed: false });
  expect(await rowOf(c)).toMatchObject({ websiteId: c.websiteId, targets: ['site_target'] });
  const again = await runOnce(db(), c, own, async () => ({ n: 2 }));
  expect(again).toEqual({ data: { n: 1 }, replayed: true, targets: ['site_target'] });
});

it('erasure takes away the answers of that website that hold the address; the key stays spent', async () => {
  const email = `robin.o"brien-${uniqueTag()}@example.com`.toLowerCase();
  const holding = call({ email });
  const sameSiteOther = { ...call({ email: 'someone@example.com' }), websiteId: holding.websiteId };
  const otherSite = call({ email });
  for (const c of [holding, sameSiteOther, otherSite]) {
    // Stored as the answer's JSON: the quote escaped, the case as the caller wrote it.
    await runOnce(db(), c, own, async () => ({ summary: `Invite ${String(c.input.email).toUpperCase()}` }));
  }
  expect(await eraseStoredAnswers(db(), holding.websiteId, email)).toBe(1);
  const erased = await rowOf(holding);
  expect(erased).toMatchObject({ status: 'erased', result: null });
  expect(erased!.fingerprint).not.toContain(email);
  // The repeat is refused: neither run again nor answered with the erased address.
  let ran = false;
  const repeat = runOnce(db(), holding, own, async () => {
    ran = true;
    return {};
  });
  expect(await refusalCode(repeat)).toBe('not_found');
  expect(ran).toBe(false);
  // Other arguments with the key are still a conflict, and the key is not freed.
  expect(
    await refusalCode(
      runOnce(db(), { ...holding, input: { email: 'x@example.com' } }, own, async () => ({})),
    ),
  ).toBe('idempotency_conflict');
  // Another answer of the site, and the same address on another website, are kept.
  expect((await runOnce(db(), sameSiteOther, own, async () => ({}))).replayed).toBe(true);
  expect((await runOnce(db(), otherSite, own, async () => ({}))).replayed).toBe(true);
  expect(await eraseStoredAnswers(db(), holding.websiteId, email)).toBe(0);
});
