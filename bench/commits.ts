// Commits of independent writes on PostgreSQL, with and without the change feed's NOTIFY (
// migration 0008_change_feed_opt_in). 16 connections each update their own workspace's website row
// (the row every draft edit's save also updates), each in a transaction of its own, with the real
// schema and its triggers (cache versions on), for BENCH_SECONDS per leg, alternating: "0008" is the
// default session, "NOTIFY" sets sitegate.change_feed=on as PGlite does, which is what every
// PostgreSQL write did before 0008.
// Needs BENCH_DATABASE_URL (or DATABASE_URL); it uses the sibling database `<name>_commits`.
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { sibling } from './ladder.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CLIENTS = 16;

async function leg(url: string, notify: boolean): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      if (notify) await c.query('set sitegate.change_feed = on');
      return c;
    }),
  );
  const until = performance.now() + SECONDS * 1000;
  let commits = 0;
  await Promise.all(
    clients.map(async (c, i) => {
      while (performance.now() < until) {
        await c.query('begin');
        await c.query({
          name: 'bump',
          text: 'update websites set draft_rev = draft_rev + 1 where id = $1',
          values: [`cm_w_${i}`],
        });
        await c.query('commit');
        commits += 1;
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  return commits / SECONDS;
}

export async function bench(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) {
    console.log('commits: skipped (set BENCH_DATABASE_URL to a PostgreSQL database)');
    return;
  }
  const url = await sibling(base, 'commits');
  const database = await openDatabase({ databaseUrl: url });
  await database.close();
  const seed = new pg.Client({ connectionString: url });
  await seed.connect();
  await seed.query(`insert into companies (id, name) select 'cm_co_' || g, 'Commits ' || g
    from generate_series(0, ${CLIENTS - 1}) g on conflict do nothing`);
  await seed.query(`insert into websites (id, company_id, name) select 'cm_w_' || g, 'cm_co_' || g, 'Site ' || g
    from generate_series(0, ${CLIENTS - 1}) g on conflict do nothing`);
  await seed.end();

  console.log(`${CLIENTS} connections, each its own workspace's website, ${SECONDS} s a leg, alternating`);
  console.log('| leg | commits/s | vs NOTIFY before it |');
  console.log('|---|---|---|');
  for (let round = 1; round <= 2; round++) {
    const before = await leg(url, true);
    const now = await leg(url, false);
    console.log(`| NOTIFY on every write (before 0008), round ${round} | ${before.toFixed(0)} | |`);
    console.log(`| no NOTIFY (0008), round ${round} | ${now.toFixed(0)} | ${(now / before).toFixed(2)}× |`);
  }
}
