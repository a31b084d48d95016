// A keyed call whose process dies mid-work must not hold its key forever (docs/reliability.md,
// "Retries"). A real server is killed with SIGKILL inside a keyed generate_image (the provider has
// answered, the image is not stored: test-only fault point) and restarted on the same data. Its claim
// is left `running`: the embedded database (one process) frees it at start; on PostgreSQL another
// process could still be running it, so it is taken over once its lease has run out (moved here by
// hand, as the child's clock cannot be). The retry then runs once and is charged once.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assets, companies, idempotencyKeys, websites } from '../../src/db/schema.js';
import { RESERVATION_LEASE_MS, settleReservations } from '../../src/domain/library/generate.js';
import { type Child, backend, call, killed, preparedDataDir, start, stop, withDb } from './harness.js';

const dir = preparedDataDir('idempotency-crash');
let store: Awaited<ReturnType<typeof backend>>;
const where = () => ({ dataDir: dir, databaseUrl: store.databaseUrl });
let last: Child | undefined;

beforeAll(async () => {
  store = await backend();
});
afterAll(async () => {
  if (last) await stop(last);
  await store?.drop();
});

it('a keyed generate_image killed mid-work: the retry with its key runs once and is charged once', async () => {
  const killedOne = await start(dir, { ...store.env, SITEGATE_FAULT: 'generate-after-provider' });
  last = killedOne;
  const { demo } = killedOne;
  const args = {
    websiteId: demo.websites.main,
    prompt: 'Loaves at dawn',
    idempotencyKey: 'crash-retry-0001',
  };
  expect(await call(killedOne, demo.tokens.all, 'generate_image', args)).toBeNull();
  await killed(killedOne);
  last = undefined;

  await withDb(where(), async (db) => {
    const claims = await db.select().from(idempotencyKeys);
    expect(claims.map((k) => k.status)).toEqual(['running']);
    if (store.databaseUrl) {
      await db.update(idempotencyKeys).set({ leaseUntil: new Date(Date.now() - 1000) });
    }
  });

  const c = await start(dir, store.env);
  last = c;
  const r = await call(c, demo.tokens.all, 'generate_image', args);
  expect(r?.ok, JSON.stringify(r?.error)).toBe(true);
  // The dead call's credit: settled at start on the embedded database, by the job after its lease on
  // PostgreSQL (below).
  expect(r?.data).toMatchObject({ creditsSpent: 1, creditsLeft: store.databaseUrl ? 38 : 39 });
  const again = await call(c, demo.tokens.all, 'generate_image', args);
  expect(again?.data).toEqual(r?.data);
  await stop(c);
  last = undefined;

  await withDb(where(), async (db) => {
    await settleReservations(db, new Date(Date.now() + RESERVATION_LEASE_MS + 60_000));
    const generated = await db
      .select()
      .from(assets)
      .where(and(eq(assets.websiteId, demo.websites.main), eq(assets.source, 'generated')));
    expect(generated.map((a) => a.id)).toEqual([r?.data.assetId]);
    const [site] = await db.select().from(websites).where(eq(websites.id, demo.websites.main));
    const [co] = await db.select().from(companies).where(eq(companies.id, site!.companyId));
    expect(co!.credits).toBe(39);
    expect((await db.select().from(idempotencyKeys)).map((k) => k.status)).toEqual(['done']);
  });
}, 240_000);
