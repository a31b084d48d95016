// Backups of the embedded database and its folder (R-OPS-3). A backup is a directory:
//   pgdata.tgz     PGlite's data directory, dumped at a transaction boundary (see below)
//   blobs/         the content-addressed blob files (immutable, named by their SHA-256)
//   delegation.key the OAuth delegation key, when DATA_DIR holds it (a secret: the folder is 0700)
//   demo-tokens.json the demo's tokens, when DATA_DIR holds them (never in the database)
//   manifest.json  format, time, schema version, and the dump's SHA-256
// Consistency while serving: the dump runs inside PGlite's transaction lock, so no transaction is
// half-way through; blobs are copied after it, and a blob is always written before the row naming
// it commits, so every blob the dumped rows name is copied (a newer blob may come along; it is
// harmless). On PostgreSQL the operator backs up the database (pg_dump: rows and the blobs table).
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Database, createPglite } from '../db/client.js';
import { codeMigrations, schemaStatus } from '../db/migrator.js';
import { syncNewTree } from '../kernel/durable-files.js';
import { Refusal } from '../kernel/errors.js';
import {
  BACKUP_FORMAT,
  DUMP_FILE,
  HEX64,
  type Manifest,
  SECRET_FILES,
  checkBackup,
  refuseLink,
  sha256,
} from './backup-format.js';

export { BACKUP_FORMAT, type Manifest };

function emptyDir(dir: string, what: string) {
  if (existsSync(dir) && readdirSync(dir).length)
    throw new Refusal('conflict', `${what} ${dir} is not empty.`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

function copyBlobs(from: string, to: string): number {
  let n = 0;
  for (const shard of existsSync(from) ? readdirSync(from) : []) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const f of readdirSync(path.join(from, shard))) {
      if (!HEX64.test(f)) continue; // temp files of a write in progress
      const src = path.join(from, shard, f);
      mkdirSync(path.join(to, shard), { recursive: true });
      copyFileSync(src, path.join(to, shard, f));
      n++;
    }
  }
  return n;
}

export async function backupEmbedded(database: Database, dataDir: string, out: string): Promise<Manifest> {
  const pg = database.pglite;
  if (!pg) {
    throw new Refusal(
      'invalid_input',
      'This instance runs on PostgreSQL: back up the database with pg_dump (it holds the blobs table too) and keep the secrets (docs/operating.md, Backups).',
    );
  }
  const target = path.resolve(out);
  emptyDir(target, 'The backup folder');
  const status = await schemaStatus(database.db);
  const tag =
    codeMigrations()
      .filter((m) => status.latest !== null && m.when <= status.latest)
      .at(-1)?.tag ?? null;
  // A checkpoint first makes the restore's recovery short; the dump itself holds the transaction lock.
  await pg.query('CHECKPOINT');
  let dump: Blob | undefined;
  await pg.transaction(async () => {
    dump = await pg.dumpDataDir('gzip');
  });
  const bytes = new Uint8Array(await dump!.arrayBuffer());
  writeFileSync(path.join(target, DUMP_FILE), bytes, { mode: 0o600 });
  const blobs = copyBlobs(path.join(dataDir, 'blobs'), path.join(target, 'blobs'));
  const secrets = SECRET_FILES.filter((f) => existsSync(path.join(dataDir, f)));
  for (const f of secrets) copyFileSync(path.join(dataDir, f), path.join(target, f));
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    createdAt: new Date().toISOString(),
    schema: tag,
    database: { file: DUMP_FILE, sha256: sha256(bytes), bytes: bytes.length },
    blobs,
    secrets,
  };
  writeFileSync(path.join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  // On disk, not only in the page cache, when the command says it is done.
  syncNewTree(target);
  return manifest;
}

/** Restores a backup into an empty DATA_DIR (the service must not be running on it). */
export async function restoreEmbedded(from: string, dataDir: string): Promise<Manifest> {
  // Everything the backup names is checked before anything is written: a backup folder is input
  // (it may have been copied from elsewhere, or altered), and a name in it must never steer a write.
  const { src, manifest, bytes } = checkBackup(path.resolve(from));
  const pgdata = path.join(dataDir, 'pgdata');
  for (const f of ['blobs', ...manifest.secrets]) refuseLink(path.join(dataDir, f), 'The data folder');
  emptyDir(pgdata, 'The database folder');
  try {
    const pg = await createPglite(pgdata, new Blob([bytes]));
    await pg.query('select 1');
    await pg.close();
  } catch {
    // The folder was empty before: a dump that does not open leaves nothing behind.
    rmSync(pgdata, { recursive: true, force: true });
    throw new Refusal('conflict', 'The database dump does not open as a database. Nothing was restored.');
  }
  copyBlobs(path.join(src, 'blobs'), path.join(dataDir, 'blobs'));
  for (const f of manifest.secrets) copyFileSync(path.join(src, f), path.join(dataDir, f));
  syncNewTree(dataDir);
  return manifest;
}
