// The PostgreSQL server restarts under two real `sitegate serve` processes: a cluster of the test's
// own (initdb in a temporary folder, pg_ctl stop -m fast, then start), with a write of each process
// waiting on a row the test holds. Both processes stay up; the held writes and the calls made while
// it is down are answered `unavailable` and change nothing; /readyz says 503 meanwhile; once it is back
// both serve again without being restarted.
// PostgreSQL only, like the other PostgreSQL fault tests (CI's PostgreSQL pass runs it).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/process.js';
import { createDatabase } from '../helpers/pg-admin.js';
import { type Child, besides, newDataDir, start, stop } from './harness.js';
import {
  type Cluster,
  alive,
  callTool,
  expectUnavailable,
  pgBin,
  readyz,
  servingAgain,
  startCluster,
} from './pg-kit.js';

const run = Boolean(process.env.DATABASE_URL && pgBin('initdb') && pgBin('pg_ctl'));
let cluster: Cluster;
let databaseUrl = '';
let a: Child;
let b: Child;

beforeAll(async () => {
  if (!run) return;
  cluster = await startCluster();
  databaseUrl = await createDatabase(cluster.url, 'sg_restart');
  a = await start(newDataDir('pg-restart-a'), { DATABASE_URL: databaseUrl });
  b = besides(await start(newDataDir('pg-restart-b'), { DATABASE_URL: databaseUrl }), a);
}, 240_000);
afterAll(async () => {
  for (const c of [a, b]) if (c) await stop(c);
  cluster?.destroy();
});

it.runIf(run)(
  'PostgreSQL restarts: both processes stay up, fail calls cleanly and say 503 while it is down, then serve again',
  async () => {
    const site = a.demo.websites.main;
    const token = a.demo.tokens.all;
    for (const c of [a, b])
      expect((await callTool(c.base, token, 'list_pages', { websiteId: site })).ok).toBe(true);

    // Each process's create_page waits on the website's row, held by the test, when the server stops.
    const lock = new pg.Client({ connectionString: databaseUrl });
    const watch = new pg.Client({ connectionString: databaseUrl });
    for (const client of [lock, watch]) {
      client.on('error', () => {});
      await client.connect();
    }
    await lock.query('begin');
    await lock.query('select 1 from websites where id = $1 for update', [site]);
    const held = [a, b].map((c, i) =>
      callTool(c.base, token, 'create_page', { websiteId: site, title: `Held across the restart ${i}` }),
    );
    await until(async () => {
      const r = await watch.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database()
            and wait_event_type = 'Lock'`,
      );
      return r.rows[0].n === 2 || null;
    }, 300);

    cluster.stop();
    for (const r of await Promise.all(held)) expectUnavailable(r);
    for (const client of [lock, watch]) await client.end().catch(() => {});
    for (const c of [a, b]) {
      await until(async () => (await readyz(c.base)) === 503 || null, 100);
      expectUnavailable(
        await callTool(c.base, token, 'create_page', { websiteId: site, title: 'While it is down' }),
      );
      expect(alive(c)).toBe(true);
    }

    cluster.start();
    await servingAgain([a, b], site);
    for (const [i, c] of [a, b].entries()) {
      expect(await readyz(c.base)).toBe(200);
      const r = await callTool(c.base, token, 'create_page', {
        websiteId: site,
        title: `After the restart ${i}`,
      });
      expect(r.ok, r.text).toBe(true);
    }
    const listed = await callTool(a.base, token, 'list_pages', { websiteId: site });
    const titles = (listed.data.pages as Array<{ title: string }>).map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining(['After the restart 0', 'After the restart 1']));
    expect(titles).not.toContain('While it is down');
    expect(titles.filter((t) => t.startsWith('Held across the restart'))).toEqual([]);
  },
  180_000,
);
