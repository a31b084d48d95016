// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Both run the same committed migrations (src/db/migrations) and the same Drizzle schema.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { CHANGE_CHANNEL, type ChangeFeed, changeFeed } from './change-feed.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; kind: 'pglite' | 'postgres'; feed: ChangeFeed; close: () => Promise<void> };

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type OpenOptions = { databaseUrl?: string; dataDir?: string; memory?: boolean; poolSize?: number };

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10);
  return openPglite(opts.memory ? undefined : path.join(opts.dataDir ?? '.sitegate', 'pgdata'));
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max });
  const db = drizzle(pool, { schema });
  // Two processes may start at once against one database: serialise migrations with an advisory lock.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await migrate(db, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
  // Caches stay off on PostgreSQL: another process's commit would reach us a few milliseconds
  // late, and a refusal must hold at the very next call (SPEC §1). The pool serves the live facts.
  return { db: db as unknown as Db, kind: 'postgres', feed: changeFeed(), close: () => pool.end() };
}

async function openPglite(dir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (dir) mkdirSync(dir, { recursive: true });
  // PGlite's default 128 MB shared_buffers alone costs ~140 MB of resident memory; the embedded
  // database of one workspace-sized service needs far less (bench/mcp.ts measures the effect).
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'temp_buffers=2MB'];
  const client = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), startParams });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  const feed = changeFeed();
  // PGlite is in-process: a notification is handled before the committing statement resolves.
  await client.listen(CHANGE_CHANNEL, (table) => feed.emit(table));
  feed.setLive(true);
  return { db: db as unknown as Db, kind: 'pglite', feed, close: () => client.close() };
}
