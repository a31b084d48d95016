// Workspace cache versions on PostgreSQL: what a process caches is used again while its
// workspace's versions stand, and a committed change of the kind a cache depends on — made through
// any connection to the database — makes the very next lookup load again. Content writes leave who
// a token is alone. (PGlite uses the change feed: test/db/change-feed.test.ts.)
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken, revokeConnection } from '../../src/auth/connections.js';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { sections } from '../../src/db/schema.js';
import { createCaches } from '../../src/mcp/caches.js';
import { versionReader } from '../../src/db/versions.js';
import { uniqueTag } from '../helpers/db.js';
import { gate } from '../helpers/gate.js';

const url = process.env.DATABASE_URL;

/** The real pool, with the first statement held until `release()` (a read that is in flight). */
function heldPool(db: Database) {
  const pool = (db.db as unknown as { $client: { raw: pg.Pool } }).$client.raw;
  let sent = 0;
  const held = gate();
  const answered = gate();
  return {
    sent: () => sent,
    release: held.release,
    firstAnswered: answered.done,
    query: async (q: { name: string; text: string; values: unknown[] }) => {
      sent += 1;
      const result = await pool.query(q);
      if (sent === 1) {
        answered.release();
        await held.done;
      }
      return result;
    },
  };
}
let mine: Database;
let other: Database;
let d: Demo;

beforeAll(async () => {
  if (!url) return;
  mine = await openDatabase({ databaseUrl: url });
  other = await openDatabase({ databaseUrl: url, migrate: false });
  d = await seedDemo(other.db, { tag: uniqueTag() });
});
afterAll(async () => {
  await mine?.close();
  await other?.close();
});

it.runIf(url)('a cached caller is reused until its workspace changes, then reloaded', async () => {
  const caches = createCaches(mine.feed, mine.cacheVersion);
  let loads = 0;
  const lookup = () =>
    caches.caller(sha256Hex(d.tokens.all), async () => {
      loads += 1;
      return callerForToken(mine.db, d.tokens.all);
    });
  expect((await lookup())?.connectionId).toBe(d.connections.all);
  await lookup();
  await lookup();
  expect(loads).toBe(1);

  // A content write (through the other pool) changes the content version only: still no reload,
  // but the caller now carries the new version, so the gate and read caches key on it.
  const before = (await lookup())!.cacheVersion;
  await other.db.update(sections).set({ hidden: true }).where(eq(sections.id, d.sections.intro));
  const after = (await lookup())!;
  expect(loads).toBe(1);
  expect(after.cacheVersion).not.toBe(before);

  // A revocation changes the auth version: the next lookup loads, and finds no caller.
  await revokeConnection(other.db, d.users.owner.id, d.connections.all, new Date());
  expect(await lookup()).toBeNull();
  expect(loads).toBe(2);
});

it.runIf(url)('a read cached under one version is not found under the next', async () => {
  const caches = createCaches(mine.feed, mine.cacheVersion);
  const caller = (await callerForToken(mine.db, d.tokens.default))!;
  let loads = 0;
  const read = (version: string) => caches.reads.get('k', async () => ++loads, version);
  expect(await read(caller.cacheVersion!)).toBe(1);
  expect(await read(caller.cacheVersion!)).toBe(1);
  await other.db.update(sections).set({ hidden: false }).where(eq(sections.id, d.sections.intro));
  const next = (await callerForToken(mine.db, d.tokens.default))!;
  expect(next.cacheVersion).not.toBe(caller.cacheVersion);
  expect(await read(next.cacheVersion!)).toBe(2);
});

it.runIf(url)(
  'reads asked together share one statement, and none uses a snapshot older than its request',
  async () => {
    const pool = heldPool(mine);
    const read = versionReader(pool);
    const before = await mine.cacheVersion!(d.companyId);
    // The first read is sent (and answers from a snapshot before the write below); it is held in flight.
    const first = read(d.companyId);
    await pool.firstAnswered;
    await other.db.update(sections).set({ hidden: true }).where(eq(sections.id, d.sections.intro));
    // Twenty requests arrive after the commit, while the first read is still in flight.
    const later = Array.from({ length: 20 }, () => read(d.companyId));
    pool.release();
    expect(await first).toBe(before);
    const seen = await Promise.all(later);
    // One more statement served all twenty, and every one of them sees the committed write.
    expect(pool.sent()).toBe(2);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).not.toBe(before);
    expect(seen[0]).toBe(await mine.cacheVersion!(d.companyId));
  },
);

it.runIf(url)('a write on PostgreSQL notifies no change feed (nobody listens there)', async () => {
  // Migration 0008: NOTIFY made every committing writer of the cluster wait on one lock through its
  // WAL flush. Notifications arrive in commit order, so once the marker sent after the write arrives,
  // anything the write notified would have arrived before it.
  const pool = (other.db as unknown as { $client: { raw: pg.Pool } }).$client.raw;
  const listener = await pool.connect();
  const heard: string[] = [];
  try {
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('listen sitegate_change');
    await mine.db.update(sections).set({ hidden: true }).where(eq(sections.id, d.sections.intro));
    await mine.db.execute(sql`select pg_notify('sitegate_change', 'marker')`);
    for (let i = 0; i < 200 && !heard.includes('marker'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(['marker']);
  } finally {
    await listener.query('unlisten sitegate_change');
    listener.release();
  }
});
