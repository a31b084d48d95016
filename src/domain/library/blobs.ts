// Content-addressed blob store: bytes live in DATA_DIR/blobs/<sha256[0:2]>/<sha256>.
// Writes are atomic (temp file + rename) and idempotent; the database row names the hash.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';

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
