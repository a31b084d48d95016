// Content-addressed blob store. Embedded: bytes live in DATA_DIR/blobs/<sha256[0:2]>/<sha256>, written
// atomically and durably (temp file, fsync, rename, fsync of the folder). On PostgreSQL: the `blobs`
// table, so any process can serve any blob.
// Writes are idempotent; the asset row names the hash.
//
// Lifetime (R-REL-1, docs/reliability.md): bytes are written before the row that names them
// commits, and nothing ever deletes them on a rollback — another import may be about to commit a row
// naming the same hash. A `put` of bytes that already exist renews their age. `sweepBlobs` (a background
// job on both backends) removes blobs that no asset row references and that are older than a grace
// period far longer than any import, so bytes a transaction is about to reference are never removed.
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { assets, blobs } from '../../db/schema.js';
import { writeFileDurably } from '../../kernel/durable-files.js';

export type BlobStore = {
  /** Stores the bytes (or renews the age of identical bytes already stored); returns the hash. */
  put(bytes: Uint8Array): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  remove(sha256: string): Promise<void>;
  list(): Promise<string[]>;
  /** Hashes last written before `cutoff`: candidates for the sweep. */
  olderThan(cutoff: Date): Promise<string[]>;
  /** Removes the blob if it is still older than `cutoff` and no asset row references it. */
  removeUnreferenced(sha256: string, cutoff: Date): Promise<boolean>;
};

/** Unreferenced bytes younger than this are kept: an import that wrote them may still commit. */
export const BLOB_GRACE_MS = 3_600_000;

/** Removes blobs that no asset references and that are older than the grace period; returns how many. */
export async function sweepBlobs(store: BlobStore, db: Db, now: Date, graceMs = BLOB_GRACE_MS) {
  const cutoff = new Date(now.getTime() - graceMs);
  const candidates = await store.olderThan(cutoff);
  let removed = 0;
  for (let i = 0; i < candidates.length; i += 500) {
    const chunk = candidates.slice(i, i + 500);
    const used = await db
      .selectDistinct({ sha: assets.sha256 })
      .from(assets)
      .where(inArray(assets.sha256, chunk));
    const keep = new Set(used.map((u) => u.sha));
    for (const sha of chunk)
      if (!keep.has(sha) && (await store.removeUnreferenced(sha, cutoff))) removed += 1;
  }
  return removed;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function fileBlobStore(root: string): BlobStore {
  const where = (sha: string) => {
    if (!HEX64.test(sha)) throw new Error('invalid blob key');
    return path.join(root, sha.slice(0, 2), sha);
  };
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const file = where(sha);
      if (await stat(file).catch(() => null)) {
        // Renew the age: a sweep must not take bytes an import is about to reference.
        const now = new Date();
        if (
          await utimes(file, now, now).then(
            () => true,
            () => false,
          )
        )
          return sha;
      }
      // On disk before the row that names it can commit: a power cut must not leave a row without bytes.
      await writeFileDurably(file, bytes);
      return sha;
    },
    async get(sha) {
      return readFile(where(sha)).catch(() => null);
    },
    async remove(sha) {
      await rm(where(sha), { force: true });
    },
    async list() {
      const out: string[] = [];
      for (const dir of await readdir(root).catch(() => [] as string[])) {
        for (const f of await readdir(path.join(root, dir)).catch(() => [] as string[])) {
          if (HEX64.test(f)) out.push(f);
        }
      }
      return out;
    },
    async olderThan(cutoff) {
      const out: string[] = [];
      for (const sha of await this.list()) {
        const st = await stat(where(sha)).catch(() => null);
        if (st && st.mtimeMs < cutoff.getTime()) out.push(sha);
      }
      return out;
    },
    async removeUnreferenced(sha, cutoff) {
      // The caller checked the asset rows; re-check the age right before removing (a put renews it).
      const st = await stat(where(sha)).catch(() => null);
      if (!st || st.mtimeMs >= cutoff.getTime()) return false;
      await rm(where(sha), { force: true });
      return true;
    },
  };
}

export function databaseBlobStore(db: Db): BlobStore {
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      await db
        .insert(blobs)
        .values({ sha256: sha, bytes: Buffer.from(bytes) })
        // Identical bytes already stored: renew their age (the sweep's grace period starts again).
        .onConflictDoUpdate({ target: blobs.sha256, set: { createdAt: sql`now()` } });
      return sha;
    },
    async get(sha) {
      if (!HEX64.test(sha)) throw new Error('invalid blob key');
      const [row] = await db.select({ bytes: blobs.bytes }).from(blobs).where(eq(blobs.sha256, sha));
      return row?.bytes ?? null;
    },
    async remove(sha) {
      await db.delete(blobs).where(eq(blobs.sha256, sha));
    },
    async list() {
      return (await db.select({ sha: blobs.sha256 }).from(blobs)).map((r) => r.sha);
    },
    async olderThan(cutoff) {
      const rows = await db.select({ sha: blobs.sha256 }).from(blobs).where(lt(blobs.createdAt, cutoff));
      return rows.map((r) => r.sha);
    },
    async removeUnreferenced(sha, cutoff) {
      // One statement: still old, and no committed asset row names it.
      const gone = await db
        .delete(blobs)
        .where(
          and(
            eq(blobs.sha256, sha),
            lt(blobs.createdAt, cutoff),
            sql`not exists (select 1 from ${assets} where ${assets.sha256} = ${sha})`,
          ),
        )
        .returning({ sha: blobs.sha256 });
      return gone.length > 0;
    },
  };
}
