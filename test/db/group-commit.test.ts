// Group commit (src/db/group-commit.ts) on the file's real database: which calls share a transaction
// (the transaction id each one sees), what a refusal inside a group does to the others, and that a
// failure at the commit is not run again. The race with a row held by another connection is in
// test/reliability/group-commit.test.ts (PostgreSQL).
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Database, Db } from '../../src/db/client.js';
import { groupCommit } from '../../src/db/group-commit.js';
import { DeadlineExceeded, withDeadline } from '../../src/db/deadline.js';
import { gate } from '../helpers/gate.js';
import { testDatabase } from '../helpers/db.js';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
  await database.db.execute(sql`create table if not exists group_commit_probe (tag text not null)`);
});

const txid = async (tx: Db) =>
  String(
    ((await tx.execute(sql`select txid_current()::text as id`)) as { rows: { id: string }[] }).rows[0]!.id,
  );
const tags = async (prefix: string) =>
  (
    (await database.db.execute(
      sql`select tag from group_commit_probe where tag like ${`${prefix}%`} order by tag`,
    )) as { rows: { tag: string }[] }
  ).rows.map((r) => r.tag);

/** A group whose lines are tags inserted just before each commit. */
function probe(max = 64, failCommit = false) {
  const commits: string[][] = [];
  const group = groupCommit<string>(database.db, {
    max,
    async beforeCommit(tx, lines) {
      commits.push(lines);
      if (failCommit) throw new Error('the commit failed');
      for (const line of lines) await tx.execute(sql`insert into group_commit_probe (tag) values (${line})`);
    },
  });
  return { group, commits };
}

/**
 * A first call whose work waits for `release()` once it has begun: its group is closed by then, so the
 * calls made after `started` queue behind it.
 */
function occupying(group: ReturnType<typeof probe>['group'], key: string, line: string) {
  const begun = gate();
  const hold = gate();
  const call = group(key, async () => {
    begun.release();
    await hold.done;
    return { value: 'first', line };
  });
  return { call, started: begun.done, release: hold.release };
}

it('calls queued behind a transaction share the next one, in arrival order, at most `max` at a time', async () => {
  const { group, commits } = probe(3);
  const first = occupying(group, 'workspace', 'queued-0');
  await first.started;
  const calls = Array.from({ length: 5 }, (_, i) =>
    group('workspace', async (tx) => ({ value: await txid(tx), line: `queued-${i + 1}` })),
  );
  first.release();
  const seen = await Promise.all(calls);
  expect(await first.call).toBe('first');
  // The first ran alone; the five that queued behind it took two transactions of at most three.
  expect(commits).toEqual([['queued-0'], ['queued-1', 'queued-2', 'queued-3'], ['queued-4', 'queued-5']]);
  expect(new Set(seen).size).toBe(2);
  expect(seen[0]).toBe(seen[2]);
  expect(seen[3]).toBe(seen[4]);
  expect(seen[0]).not.toBe(seen[3]);
  expect(await tags('queued-')).toEqual(['queued-0', ...calls.map((_, i) => `queued-${i + 1}`)]);
});

it('calls made while a group is on its way to its transaction join it, at most `max`', async () => {
  const { group, commits } = probe(3);
  // Made in one go: the first call's group is closed only once its transaction has begun (and, on
  // PostgreSQL, holds the workspace's write lock), by when the others are waiting.
  const calls = Array.from({ length: 4 }, (_, i) =>
    group('joining', async (tx) => ({ value: await txid(tx), line: `joining-${i}` })),
  );
  const seen = await Promise.all(calls);
  expect(commits).toEqual([['joining-0', 'joining-1', 'joining-2'], ['joining-3']]);
  expect(seen[0]).toBe(seen[2]);
  expect(seen[0]).not.toBe(seen[3]);
  expect(await tags('joining-')).toEqual(calls.map((_, i) => `joining-${i}`));
});

it('keys do not wait for each other', async () => {
  const { group, commits } = probe();
  await Promise.all([
    group('a', async () => ({ value: 1, line: 'key-a' })),
    group('b', async () => ({ value: 2, line: 'key-b' })),
  ]);
  // Two transactions side by side (on PostgreSQL, two connections): either may commit first.
  expect([...commits].sort()).toEqual([['key-a'], ['key-b']]);
});

it('a call that throws inside a group undoes nothing of the others: they run again alone and commit', async () => {
  const { group, commits } = probe();
  const runs: string[] = [];
  const first = group('refusal', async () => ({ value: 'first', line: 'refusal-0' }));
  const grouped = ['refusal-1', 'refusal-2', 'refusal-3'].map((tag) =>
    group('refusal', async (tx) => {
      runs.push(tag);
      await tx.execute(sql`insert into group_commit_probe (tag) values (${`${tag}-partial`})`);
      if (tag === 'refusal-2') throw new Error('refused');
      return { value: tag, line: tag };
    }),
  );
  const settled = await Promise.allSettled([first, ...grouped]);
  expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
    'first',
    'refusal-1',
    'refused',
    'refusal-3',
  ]);
  // Together first (rolled back at the refusal), then each alone.
  expect(runs).toEqual(['refusal-1', 'refusal-2', 'refusal-1', 'refusal-2', 'refusal-3']);
  expect(commits).toEqual([['refusal-0'], ['refusal-1'], ['refusal-3']]);
  // The refused call's partial write is gone; the others' writes are there once.
  expect(await tags('refusal-')).toEqual([
    'refusal-0',
    'refusal-1',
    'refusal-1-partial',
    'refusal-3',
    'refusal-3-partial',
  ]);
});

it('a failure at the commit fails the whole group and runs nothing again', async () => {
  const { group } = probe(64, true);
  let runs = 0;
  const calls = Array.from({ length: 3 }, (_, i) =>
    group('commit-fails', async (tx) => {
      runs += 1;
      await tx.execute(sql`insert into group_commit_probe (tag) values (${`commit-fails-${i}`})`);
      return { value: i, line: `commit-fails-line-${i}` };
    }),
  );
  const settled = await Promise.allSettled(calls);
  expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(runs).toBe(3); // one alone, two together: none run twice
  expect(await tags('commit-fails')).toEqual([]);
});

it('a group PostgreSQL undid (a deadlock) runs again together, each call once more, and commits once', async () => {
  const { group, commits } = probe();
  const runs: string[] = [];
  let undone = false;
  const occupied = occupying(group, 'undone', 'undone-0');
  await occupied.started;
  const first = occupied.call;
  const grouped = ['undone-1', 'undone-2', 'undone-3'].map((tag) =>
    group('undone', async () => {
      runs.push(tag);
      if (tag === 'undone-2' && !undone) {
        undone = true;
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }
      return { value: tag, line: tag };
    }),
  );
  occupied.release();
  expect(await Promise.all([first, ...grouped])).toEqual(['first', 'undone-1', 'undone-2', 'undone-3']);
  expect(runs).toEqual(['undone-1', 'undone-2', 'undone-1', 'undone-2', 'undone-3']);
  expect(commits).toEqual([['undone-0'], ['undone-1', 'undone-2', 'undone-3']]);
  expect(await tags('undone-')).toEqual(['undone-0', 'undone-1', 'undone-2', 'undone-3']);
});

it('a call that waited past its deadline is answered without running; the calls beside it run', async () => {
  const { group, commits } = probe();
  const ran: string[] = [];
  const occupied = occupying(group, 'late', 'late-0');
  await occupied.started;
  const first = occupied.call;
  const late = withDeadline(20, () =>
    group('late', async () => {
      ran.push('late-1');
      return { value: 'late', line: 'late-1' };
    }),
  ).catch((e) => e);
  const onTime = group('late', async () => {
    ran.push('late-2');
    return { value: 'on time', line: 'late-2' };
  });
  await new Promise((r) => setTimeout(r, 60));
  occupied.release();
  expect(await first).toBe('first');
  expect(await onTime).toBe('on time');
  expect(await late).toBeInstanceOf(DeadlineExceeded);
  expect(ran).toEqual(['late-2']);
  expect(commits).toEqual([['late-0'], ['late-2']]);
  expect(await tags('late-')).toEqual(['late-0', 'late-2']);
});
