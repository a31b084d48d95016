// Both blob stores keep bytes by content hash, idempotently, and remove them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseBlobStore, fileBlobStore } from '../../src/domain/library/blobs.js';
import { testDatabase } from '../helpers/db.js';

describe.each([
  ['file', async () => fileBlobStore(mkdtempSync(path.join(tmpdir(), 'sg-blobs-')))],
  ['database', async () => databaseBlobStore((await testDatabase()).db)],
])('%s blob store', (_name, make) => {
  it('puts, gets, lists and removes by SHA-256', async () => {
    const store = await make();
    const bytes = Buffer.from(`hello ${Math.random()}`);
    const sha = await store.put(bytes);
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.put(bytes)).toBe(sha);
    expect((await store.get(sha))?.equals(bytes)).toBe(true);
    expect(await store.list()).toContain(sha);
    await store.remove(sha);
    expect(await store.get(sha)).toBeNull();
    await expect(store.get('../../etc/passwd')).rejects.toThrow('invalid blob key');
  });
});
