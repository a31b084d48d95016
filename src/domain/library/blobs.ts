// Content-addressed blob store. Embedded: bytes live in DATA_DIR/blobs/<sha256[0:2]>/<sha256>, written
// atomically (temp file + rename). On PostgreSQL: the `blobs` table, so any process can serve any blob.
// Writes are idempotent; the asset row names the hash.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { blobs } from '../../db/schema.js';

export type BlobStore = {
  put(bytes: Uint8Array): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  remove(sha256: string): Promise<void>;
  list(): Promise<string[]>;
};

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
      if (await stat(file).catch(() => null)) return sha;
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
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
  };
}

export function databaseBlobStore(db: Db): BlobStore {
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      await db
        .insert(blobs)
        .values({ sha256: sha, bytes: Buffer.from(bytes) })
        .onConflictDoNothing();
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
  };
}
