// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Both run the same committed migrations (src/db/migrations) and the same Drizzle schema.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { CHANGE_CHANNEL, type ChangeFeed, changeFeed } from './change-feed.js';
import { DB_BOUNDS, type DbBounds } from '../config.js';
import { loneClientOptions, poolOptions } from './pg-bounds.js';
import { migrationsFolder } from './migrator.js';
import { keepDrizzleText } from './pglite-parsers.js';
import { syncNewTree } from '../kernel/durable-files.js';
import { SessionPglite, SessionPool } from './session.js';
import { markPglite } from './transactions.js';
import { versionReader } from './versions.js';

export { migrationsFolder };

// No schema is given to Drizzle: its relational query API (`db.query.*`) is not used, and with a schema
// every transaction object builds a query builder for each table (memory and CPU on every write).
export type Db = PgDatabase<PgQueryResultHKT>;
export type PoolUse = { total: number; idle: number; waiting: number; max: number };
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  feed: ChangeFeed;
  close: () => Promise<void>;
  /** Applies pending migrations; on PostgreSQL serialised across processes by an advisory lock. */
  migrate: () => Promise<void>;
  /** Connection-pool figures for /metrics (PostgreSQL only). */
  poolUse?: () => PoolUse;
  /** A workspace's current cache version (PostgreSQL; src/db/versions.ts). */
  cacheVersion?: (companyId: string) => Promise<string>;
  /** The embedded instance, for a consistent backup (`sitegate backup`). */
  pglite?: PGlite;
  /** True when this open created the embedded data directory (a first start). */
  created?: boolean;
};

export type OpenOptions = {
  databaseUrl?: string;
  dataDir?: string;
  memory?: boolean;
  poolSize?: number;
  /** PostgreSQL: bounds on statements, connection attempts and idle transactions (DB_BOUNDS). */
  bounds?: DbBounds;
  /** Apply pending migrations while opening (default true); `serve` decides itself (R-OPS-2). */
  migrate?: boolean;
  /**
   * With `memory`: start from this dump of an already-initialised database (PGlite's dumpDataDir)
   * instead of running initdb, which is most of a cold start. Tests share one migrated image per run.
   */
  memoryImage?: Blob;
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.bounds ?? DB_BOUNDS)
    : await openPglite(
        opts.memory ? undefined : path.join(opts.dataDir ?? '.sitegate', 'pgdata'),
        undefined,
        opts.memory ? opts.memoryImage : undefined,
      );
  if (opts.migrate !== false) await database.migrate();
  return database;
}

async function openPostgres(url: string, max: number, bounds: DbBounds): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  // A database that cannot be reached or stalls fails a request within its bounds instead of
  // queueing it forever (and /readyz turns 503); pg's default is to wait without bound.
  const raw = new pg.Pool(poolOptions(url, max, bounds));
  // An idle client whose server went away emits 'error' on the pool; without a listener that is fatal.
  raw.on('error', () => {});
  // Every statement and checkout goes through the one seam (src/db/session.ts).
  const pool = new SessionPool(raw);
  const db = drizzle({ client: pool as unknown as InstanceType<typeof pg.Pool> });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    // The change feed stays off on PostgreSQL: another process's commit would reach us a few
    // milliseconds late, and a refusal must hold at the very next call (R-SURF-3). Caches are keyed
    // by the workspace version read on every request instead (versions.ts), and the change triggers
    // notify nothing (migration 0008: a NOTIFY serialises every commit of the cluster).
    feed: changeFeed(),
    cacheVersion: versionReader(pool),
    close: () => pool.end(),
    async migrate() {
      // Two processes may start at once against one database: serialise migrations with an advisory
      // lock. They run on a connection of their own without the pool's statement bounds: a migration
      // may rightly take longer than any request, and so may waiting for another process's.
      const client = new pg.Client(loneClientOptions(url, bounds));
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('select pg_advisory_lock(727001)');
        await migrate(drizzle(client), { migrationsFolder });
      } finally {
        await client.end().catch(() => {});
      }
    },
    poolUse: () => ({ total: raw.totalCount, idle: raw.idleCount, waiting: raw.waitingCount, max }),
  };
}

/** PGlite's default 128 MB shared_buffers alone costs ~140 MB of resident memory; the embedded
 * database of one workspace-sized service needs far less (bench/mcp.ts measures the effect). */
export const PGLITE_START_PARAMS = [
  '-c',
  'shared_buffers=16MB',
  '-c',
  'temp_buffers=2MB',
  // Commits and checkpoints reach the disk; the method that reaches it there (src/db/pglite-fsync.ts).
  '-c',
  'fsync=on',
  '-c',
  'wal_sync_method=fsync',
  // One process: caches follow the change feed, so writes skip the cache-version triggers (0007) and
  // notify the feed instead (0008: the triggers notify only where this is on, never on PostgreSQL).
  '-c',
  'sitegate.cache_versions=off',
  '-c',
  'sitegate.change_feed=on',
];

/**
 * PGlite's WebAssembly runs on V8's baseline compiler (Liftoff) only. By default V8 also
 * recompiles the hot PostgreSQL functions with TurboFan on background threads, and the memory those
 * compilations malloc stays in the threads' arenas for good. Baseline code only holds less
 * memory idle and starts faster (bench/startup.ts), and get_page is served as fast (bench/mcp.ts);
 * the figures are in docs/performance.md. Set before the
 * module is compiled; process-wide, and nothing else in Sitegate runs WebAssembly. On Node 24 the flag
 * no longer takes effect when set at run time: the `sitegate` command gives it to Node at start
 * (bin/sitegate.mjs), and this call still covers Node 20 and 22 started any other way.
 */
function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * Opens PGlite on `dataDir` (in memory without one), optionally loading a dumped image, the one way
 * Sitegate puts it on a folder: through SyncingNodeFS with fsync on (src/db/pglite-fsync.ts) and
 * Sitegate's settings. The server and `sitegate restore` both use it.
 */
export async function createPglite(dataDir?: string, image?: Blob): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { SyncingNodeFS } = await import('./pglite-fsync.js');
  // pg_trgm: the trigram indexes an erasure's search of free text walks (migration 0021), as on PostgreSQL.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return PGlite.create({
    extensions: { pg_trgm },
    ...(dataDir ? { fs: new SyncingNodeFS(dataDir) } : {}),
    ...(image ? { loadDataDir: image } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_START_PARAMS],
  });
}

async function openPglite(dir: string | undefined, fresh?: string, image?: Blob): Promise<Database> {
  useBaselineWasmCompiler();
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let created = false;
  if (dir && !existsSync(path.join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    created = true;
    // R-OPS-2: initdb's memory peak is never handed back to the OS, so
    // a first start prepares the directory in a short-lived child and this process opens the result
    // (as cheap as a restart). A new, empty database is always brought to the current schema.
    await prepareInChild(dir);
  }
  const client = await createPglite(fresh ?? dir, image);
  keepDrizzleText(client);
  // Every statement and transaction goes through the one seam (src/db/session.ts).
  const db = drizzle({ client: new SessionPglite(client) as unknown as PGlite });
  markPglite(db as unknown as Db);
  const feed = changeFeed();
  // PGlite is in-process: a notification is handled before the committing statement resolves.
  await client.listen(CHANGE_CHANNEL, (table) => feed.emit(table));
  feed.setLive(true);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    feed,
    close: () => client.close(),
    async migrate() {
      await migrate(db, { migrationsFolder });
      feed.emit('*');
    },
    pglite: client,
    created,
  };
}

/**
 * Creates an embedded database in `dir` (initdb) and applies the migrations: the child's work. initdb
 * writes its files without syncs (only later changes are synced by PostgreSQL's checkpoints), so the
 * whole folder is synced before the service may build on it, as PostgreSQL's own initdb does.
 */
export async function preparePgliteDir(dir: string): Promise<void> {
  const database = await openPglite(undefined, dir);
  await database.migrate();
  await database.close();
  syncNewTree(dir);
}

/** Runs src/db/prepare-data-dir (or its compiled twin) as a child; tsx loads it in development. */
async function prepareInChild(dir: string): Promise<void> {
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  const script = path.join(path.dirname(here), `prepare-data-dir${ext}`);
  const loader =
    ext === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...loader, script, dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`preparing the database in ${dir} failed (${code}): ${err}`)),
    );
  });
}
