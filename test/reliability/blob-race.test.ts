// PostgreSQL only (PGlite runs one transaction at a time, so the interleaving cannot happen there):
// the blob race (R-REL-1), made deterministic with row locks held by the test. Two Sitegate
// instances with their own pools share one database (and its blob table):
//   A (instance 1) writes image X — new bytes — then waits inside its transaction on its company row;
//   B (instance 2) writes the same X — already there — then waits inside its transaction too;
//   A's plan fills up meanwhile, so A fails late (site_limit_reached) and rolls back;
//   B is released and commits an asset naming X. X must still be there.
// Before the fix, A's clean-up deleted X because no committed row named it yet.
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { assets, websites } from '../../src/db/schema.js';
import { type Sitegate, createSitegate } from '../../src/runtime.js';
import { uniqueTag } from '../helpers/db.js';
import { lockWaiters } from '../helpers/pg-locks.js';
import { until } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';
import { type AssetServer, bigSite, pixel, startAssetServer } from '../portable/fixtures.js';

const url = process.env.DATABASE_URL;
const instances: Array<{ sg: Sitegate; base: string }> = [];
let files: AssetServer;
const color = `#${randomInt(0, 0xffffff).toString(16).padStart(6, '0')}`;

beforeAll(async () => {
  if (!url) return;
  files = await startAssetServer({ '/img/x.png': { type: 'image/png', body: await pixel(color) } });
  for (let i = 0; i < 2; i += 1) {
    const config = loadConfig({
      PORT: String(await freePort()),
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      CRAWL_ALLOW_HOSTS: files.hostPort,
    });
    const sg = await createSitegate(config, {
      database: await openDatabase({ databaseUrl: url }),
      log: pino({ level: 'silent' }),
      backgroundJobs: false, // as every in-process test server: no sweeps of the shared database
      limitPrefix: `blobrace:${uniqueTag()}`,
    });
    instances.push({ sg, base: (await sg.listen()).url });
  }
});
afterAll(async () => {
  for (const i of instances) {
    await i.sg.close();
    await i.sg.database.close();
  }
  await files?.close();
});

const importX = (base: string, d: Demo) =>
  postMcp(`${base}/api/mcp`, d.tokens.workspace, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'import_site',
      arguments: {
        websiteId: d.websites.main,
        site: { ...bigSite(1, 1), assets: [{ key: 'x', url: `${files.base}/img/x.png` }] },
      },
    },
  }).then(
    async (r) =>
      ((await r.json()) as any).result.structuredContent as { ok: boolean; data?: any; error?: any },
  );

it.runIf(url)(
  'PostgreSQL, two instances: a failed import never deletes bytes another import commits',
  async () => {
    const [one, two] = instances as [{ sg: Sitegate; base: string }, { sg: Sitegate; base: string }];
    const db = one.sg.deps.services.db;
    const a = await seedDemo(db, { tag: uniqueTag() });
    const b = await seedDemo(db, { tag: uniqueTag() });
    const lockA = new pg.Client({ connectionString: url });
    const lockB = new pg.Client({ connectionString: url });
    await lockA.connect();
    await lockB.connect();
    const watch = new pg.Client({ connectionString: url });
    await watch.connect();
    // Backends of this database waiting on a row lock of the companies table (A's or B's commit step).
    const waiting = () => lockWaiters(watch, 'companies');
    try {
      await lockA.query('begin');
      await lockA.query('select 1 from companies where id = $1 for update', [a.companyId]);
      await lockB.query('begin');
      await lockB.query('select 1 from companies where id = $1 for update', [b.companyId]);

      let settled = false;
      const answerA = importX(one.base, a).finally(() => {
        settled = true;
      });
      await until(async () => {
        if (settled) throw new Error(`A answered early: ${JSON.stringify(await answerA)}`);
        return (await waiting()) === 1 || null;
      }, 300);
      const answerB = importX(two.base, b);
      await until(async () => (await waiting()) === 2 || null, 300);

      // A's plan fills up while it waits: it fails late, inside its transaction.
      await lockA.query('update companies set site_limit = 2 where id = $1', [a.companyId]);
      await lockA.query('commit');
      expect((await answerA).error?.code).toBe('site_limit_reached');

      await lockB.query('commit');
      const rB = await answerB;
      expect(rB.ok).toBe(true);
      const [asset] = await db.select().from(assets).where(eq(assets.websiteId, rB.data.websiteId));
      expect(asset).toBeDefined();
      expect(await two.sg.deps.services.blobs.get(asset!.sha256)).not.toBeNull();
      expect(await db.select().from(websites).where(eq(websites.companyId, a.companyId))).toHaveLength(2);
    } finally {
      await lockA.query('rollback').catch(() => {});
      await lockB.query('rollback').catch(() => {});
      await lockA.end();
      await lockB.end();
      await watch.end();
    }
  },
  60_000,
);
