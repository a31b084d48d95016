// The demo's first start (R-REL-4), on the backend this run uses: PostgreSQL when
// DATABASE_URL is set (a fresh database of its own), else the embedded one. DATA_DIR does not exist
// beforehand. A first start killed half-way through seeding leaves nothing; the next start seeds once;
// every later start finds the demo in the database and prints the same details.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { users } from '../../src/db/schema.js';
import { uniqueTag } from '../helpers/db.js';
import { createDatabase, dropDatabase } from '../helpers/pg-admin.js';
import { start, stop } from './harness.js';

const server = process.env.DATABASE_URL;
const dbName = `sg_demo_${uniqueTag().toLowerCase()}`;
let databaseUrl = '';

beforeAll(async () => {
  if (!server) return;
  databaseUrl = await createDatabase(server, dbName);
});
afterAll(async () => {
  if (server) await dropDatabase(server, dbName);
});

it(`first start with --demo${server ? ' on PostgreSQL' : ''}: a half-seeded demo rolls back, then it is seeded once and found again`, async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sitegate-demo-'));
  const dataDir = path.join(root, 'not', 'there', 'yet');
  const out = path.join(root, 'out', 'demo.json');
  const env: Record<string, string> = server ? { DATABASE_URL: databaseUrl } : {};

  const crashed = await start(dataDir, { ...env, SITEGATE_FAULT: 'demo-mid-seed' }, out).catch(
    (err: Error) => err,
  );
  // The fault fires before the server listens: start() sees the process die.
  expect(crashed).toBeInstanceOf(Error);
  expect((crashed as Error).message).toContain('exited null/SIGKILL');

  const first = await start(dataDir, env, out);
  await stop(first);
  const again = await start(dataDir, env, out);
  await stop(again);
  expect(again.demo.tokens).toEqual(first.demo.tokens);
  expect(again.demo.websites).toEqual(first.demo.websites);

  const database = await openDatabase(server ? { databaseUrl } : { dataDir });
  try {
    const owners = await database.db.select().from(users).where(eq(users.email, 'owner@demo.sitegate.test'));
    expect(owners).toHaveLength(1);
  } finally {
    await database.close();
  }
}, 240_000);
