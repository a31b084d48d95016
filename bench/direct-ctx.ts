// A direct (in-process) site context with the demo seeded, for the benchmarks that call domain
// functions without the MCP layer (bench/import.ts, bench/migrate-big.ts): on an in-memory PGlite
// database, or on the PostgreSQL database BENCH_DATABASE_URL names (a scratch one: it is migrated
// and seeded).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { companies, websites } from '../src/db/schema.js';
import { seedDemo } from '../src/demo/seed.js';
import { type DirectSiteCtx, noProgress } from '../src/domain/context.js';
import { createDnsChecker } from '../src/domain/domains/dns-check.js';
import { fileBlobStore } from '../src/domain/library/blobs.js';
import { imageProviderFor } from '../src/domain/library/image-provider.js';

export async function directCtx(crawlAllowHosts: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CRAWL_ALLOW_HOSTS: crawlAllowHosts });
  const database = await openDatabase({
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    memory: true,
  });
  const db = database.db;
  const demo = await seedDemo(db, { tag: 'bench' });
  await db.update(companies).set({ siteLimit: 100 }).where(eq(companies.id, demo.companyId));
  const [website] = await db.select().from(websites).where(eq(websites.id, demo.websites.main));
  const ctx: DirectSiteCtx = {
    db,
    now: new Date(),
    actor: { userId: demo.users.owner.id, companyId: demo.companyId, connectionId: null },
    services: {
      config,
      db,
      log: pino({ level: 'silent' }),
      clock: () => new Date(),
      blobs: fileBlobStore(path.join(dataDir, 'blobs')),
      dns: createDnsChecker(config.dnsServers),
      images: imageProviderFor(config),
    },
    progress: noProgress,
    website: website!,
    role: 'owner',
  };
  const authorizeTarget = async () => website!;
  return { ctx, authorizeTarget, close: () => database.close() };
}
