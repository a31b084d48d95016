// `sitegate backup` (R-OPS-3) of a serving embedded instance, taken while writes go on, restored
// with `sitegate restore` into a fresh DATA_DIR and read back: the database opens, the rows written
// before the backup are there with the blob they name, and a restore never overwrites a database.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { withMigratedDatabase } from '../reliability/harness.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { assets, companies, users } from '../../src/db/schema.js';
import { fileBlobStore } from '../../src/domain/library/blobs.js';
import { run, sitegate, until } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';

let png: Buffer;
const provider = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
});
afterAll(() => new Promise<void>((r) => provider.close(() => r())));

it('backs up a serving instance under writes; restores into a fresh folder; the data reads back', async () => {
  png = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#2a6f8a' } })
    .png()
    .toBuffer();
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  const root = mkdtempSync(path.join(tmpdir(), 'sitegate-backup-'));
  const dataDir = withMigratedDatabase(path.join(root, 'data'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' };
  const server = sitegate(['serve', '--demo', '--demo-out', path.join(root, 'demo.json')], {
    env: {
      ...env,
      PORT: String(port),
      IMAGE_PROVIDER_URL: `http://127.0.0.1:${(provider.address() as { port: number }).port}/generate`,
    },
  });
  const call = async (token: string, name: string, args: Record<string, unknown>) => {
    const r = await postMcp(`${base}/api/mcp`, token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    return ((await r.json()) as any).result.structuredContent as { ok: boolean; data: any };
  };
  try {
    await until(
      async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200,
      1800,
      () => server.err(),
    );
    const demo = JSON.parse(readFileSync(path.join(root, 'demo.json'), 'utf8'));
    const token: string = demo.tokens.all;
    const websiteId: string = demo.websites.main;
    const image = await call(token, 'generate_image', { websiteId, prompt: 'Harbour at dawn' });
    expect(image.ok).toBe(true);

    // Writes keep coming while the backup is taken.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (let i = 0; writing && i < 200; i++) {
        if ((await call(token, 'update_business_name', { websiteId, name: `Harbor Bakery ${i}` })).ok)
          written++;
      }
    })();
    await until(() => written >= 3, 300);
    const backup = await run(['backup', '--out', path.join(root, 'backup')], { env });
    writing = false;
    await writer;
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain('1 blob');

    // Restoring over a live folder is refused while it serves, and never overwrites a database.
    const busy = await run(['restore', '--from', path.join(root, 'backup')], { env });
    expect(busy.code).toBe(2);

    const restoredDir = path.join(root, 'restored');
    const restored = await run(['restore', '--from', path.join(root, 'backup')], {
      env: { ...env, DATA_DIR: restoredDir },
    });
    expect(restored.code, restored.err).toBe(0);
    const again = await run(['restore', '--from', path.join(root, 'backup')], {
      env: { ...env, DATA_DIR: restoredDir },
    });
    expect(again.code).toBe(1);
    expect(again.err).toContain('not empty');

    // Read it back.
    const database = await openDatabase({ dataDir: restoredDir, migrate: false });
    try {
      const owner = await database.db.select().from(users).where(eq(users.email, demo.users.owner.email));
      expect(owner).toHaveLength(1);
      const [asset] = await database.db.select().from(assets).where(eq(assets.id, image.data.assetId));
      expect(asset).toBeTruthy();
      const bytes = await fileBlobStore(path.join(restoredDir, 'blobs')).get(asset!.sha256);
      expect(createHash('sha256').update(bytes!).digest('hex')).toBe(asset!.sha256);
      // The business name is one that was committed (the backup is a transaction-consistent state).
      const names = (await database.db.select({ name: companies.name }).from(companies)).map((c) => c.name);
      expect(names.some((n) => /^Harbor Bakery( \d+)?$/.test(n))).toBe(true);
    } finally {
      await database.close();
    }
    expect(readdirSync(path.join(restoredDir, 'blobs'))).toHaveLength(1);
  } finally {
    server.child.kill('SIGTERM');
    await server.done;
  }
}, 300_000);
