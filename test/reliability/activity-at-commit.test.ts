// Tools that commit in transactions of their own (`transaction: 'own'`: import_site,
// migrate_site_from_url, generate_image, connect_domain) write their Activity line inside the
// committing transaction. A real server is killed with SIGKILL right after each one's commit, before
// anything else (test-only fault point `after-own-commit`, src/kernel/fault.ts), then restarted on the
// same data; each committed change has its Activity line. One data directory (or PostgreSQL database)
// for all steps, in order, like faults.test.ts.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activity,
  assets,
  companies,
  creditReservations,
  domains,
  restorePoints,
  websites,
} from '../../src/db/schema.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { type FixtureSite, startFixtureSite } from '../migrate/fixture-site.js';
import { type AssetServer, bigSite, pixel, startAssetServer } from '../portable/fixtures.js';
import { type Child, backend, call, killed, preparedDataDir, start, stop, withDb } from './harness.js';

const dir = preparedDataDir('activity-at-commit');
const FAULT = 'after-own-commit';
const hostname = 'shop.harbor-fault.example';
const siteName = 'Imported before the crash';
let store: Awaited<ReturnType<typeof backend>>;
let files: AssetServer;
let crawled: FixtureSite;
let dns: TestDns;
let demo: Child['demo'];
let last: Child | undefined;

beforeAll(async () => {
  store = await backend();
  files = await startAssetServer({ '/img/crash.png': { type: 'image/png', body: await pixel('#1c2d0b') } });
  crawled = await startFixtureSite();
  dns = await startTestDns();
});
afterAll(async () => {
  if (last) await stop(last);
  await files?.close();
  await crawled?.close();
  await dns?.close();
  await store?.drop();
});

/** Starts the server armed to die right after the tool's commit, makes the call, waits for the kill. */
async function killedAfterCommit(name: string, token: () => string, args: () => Record<string, unknown>) {
  const c = await start(dir, {
    ...store.env,
    SITEGATE_FAULT: FAULT,
    CRAWL_ALLOW_HOSTS: `${files.hostPort},${crawled.hostPort}`,
    DNS_SERVERS: dns.server,
  });
  last = c;
  demo ??= c.demo;
  expect(await call(c, token(), name, args())).toBeNull();
  await killed(c);
  last = undefined;
}

const allowedLines = (db: Parameters<Parameters<typeof withDb>[1]>[0], tool: string) =>
  db
    .select()
    .from(activity)
    .where(and(eq(activity.tool, tool), eq(activity.outcome, 'allowed')));

describe.sequential('kill -9 right after an own-transaction tool commits, then restart', () => {
  it('import_site', async () => {
    await killedAfterCommit(
      'import_site',
      () => demo.tokens.workspace,
      () => ({
        websiteId: demo.websites.main,
        site: {
          ...bigSite(1, 2),
          name: siteName,
          assets: [{ key: 'x', url: `${files.base}/img/crash.png` }],
        },
      }),
    );
  }, 180_000);

  it('migrate_site_from_url (merging into a site)', async () => {
    await killedAfterCommit(
      'migrate_site_from_url',
      () => demo.tokens.workspace,
      () => ({
        websiteId: demo.websites.main,
        url: `${crawled.base}/`,
        maxPages: 3,
        mergeIntoWebsiteId: demo.websites.events,
      }),
    );
  }, 180_000);

  it('generate_image', async () => {
    await killedAfterCommit(
      'generate_image',
      () => demo.tokens.all,
      () => ({ websiteId: demo.websites.main, prompt: 'Loaves before the crash' }),
    );
  }, 180_000);

  it('connect_domain', async () => {
    await killedAfterCommit(
      'connect_domain',
      () => demo.tokens.all,
      () => ({ websiteId: demo.websites.main, hostname }),
    );
  }, 180_000);

  it('after a restart, each committed change has its Activity line', async () => {
    // The restarted server starts (settling what the kills left) and serves.
    const c = await start(dir, { ...store.env });
    last = c;
    expect((await call(c, demo.tokens.all, 'list_domains', { websiteId: demo.websites.main }))?.ok).toBe(
      true,
    );
    await stop(c);
    last = undefined;

    await withDb({ dataDir: dir, databaseUrl: store.databaseUrl }, async (db) => {
      // import_site: the site committed, and its line.
      expect(await db.select().from(websites).where(eq(websites.name, siteName))).toHaveLength(1);
      const imported = await allowedLines(db, 'import_site');
      expect(imported.map((l) => l.summary)).toEqual(['Imported a draft site with 1 page and 2 sections']);

      // migrate_site_from_url: the merge committed (its restore point first), and its line.
      const points = await db
        .select()
        .from(restorePoints)
        .where(eq(restorePoints.websiteId, demo.websites.events));
      expect(points.length).toBeGreaterThan(0);
      const migrated = await allowedLines(db, 'migrate_site_from_url');
      expect(migrated).toHaveLength(1);
      expect(migrated[0]!.summary).toMatch(
        /^Migrated a site from an address: [1-9]\d* pages? fetched, \d+ failed \(merged\)$/,
      );

      // generate_image: the image delivered and charged, and its line with the credit spent.
      const generated = await db
        .select()
        .from(assets)
        .where(and(eq(assets.websiteId, demo.websites.main), eq(assets.source, 'generated')));
      expect(generated).toHaveLength(1);
      const [site] = await db.select().from(websites).where(eq(websites.id, demo.websites.main));
      const [co] = await db.select().from(companies).where(eq(companies.id, site!.companyId));
      expect(co!.credits).toBe(39);
      expect(await db.select().from(creditReservations)).toHaveLength(0);
      const charged = await allowedLines(db, 'generate_image');
      expect(charged.map((l) => l.creditsSpent)).toEqual([1]);

      // connect_domain: the claim committed, and its line.
      const [claim] = await db.select().from(domains).where(eq(domains.hostname, hostname));
      expect(claim).toMatchObject({ websiteId: demo.websites.main, status: 'pending' });
      expect(claim!.lastCheckedAt).not.toBeNull();
      const connected = await allowedLines(db, 'connect_domain');
      expect(connected.map((l) => l.summary)).toEqual(['Connected a domain: pending, 2 records needed']);

      // One line per call, each naming the call's request.
      const all = [...imported, ...migrated, ...charged, ...connected];
      expect(new Set(all.map((l) => l.requestId)).size).toBe(4);
    });
  }, 180_000);
});
