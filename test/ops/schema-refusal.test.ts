// `sitegate serve` refuses a database whose schema is newer than its code (a later
// release migrated it), and writes nothing: no demo, no migration, no row. `migrate` and `admin`
// refuse it too. Real child processes on an embedded DATA_DIR. (Pending migrations in production mode
// are refused in test/e2e/operating.test.ts, on a fresh PostgreSQL database.)
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { codeMigrations } from '../../src/db/migrator.js';
import { rowsOf } from '../../src/db/rows.js';
import { run, sitegate } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';

it('serve, migrate and admin refuse a database migrated by a later release, and change nothing', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-newer-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' };
  const created = await run(['migrate'], { env });
  expect(created.code, created.err).toBe(0);

  // A later release's migration, recorded the way drizzle records one.
  const latest = codeMigrations().at(-1)!.when;
  const db1 = await openDatabase({ dataDir, migrate: false });
  await db1.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-later-release', ${latest + 60_000})`,
  );
  await db1.close();

  const serving = sitegate(['serve', '--demo'], { env: { ...env, PORT: String(await freePort()) } });
  // Bounded: code that does not refuse would serve forever.
  const killer = setTimeout(() => serving.child.kill('SIGKILL'), 90_000);
  const served = await serving.done;
  clearTimeout(killer);
  expect(served.code).toBe(1);
  expect(served.err).toMatch(/schema is newer than this version of Sitegate.*Refusing to start/s);

  const migrate = await run(['migrate'], { env });
  expect(migrate.code).toBe(2);
  expect(migrate.err).toContain('newer');
  const admin = await run(['admin', 'list-workspaces'], { env });
  expect(admin.code).toBe(2);

  // Nothing was written: no demo, the migration table as we left it, no demo.json.
  const db2 = await openDatabase({ dataDir, migrate: false });
  try {
    const count = async (q: ReturnType<typeof sql>) =>
      Number(rowsOf<{ n: number }>(await db2.db.execute(q))[0]!.n);
    expect(await count(sql`select count(*)::int as n from users`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from companies`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toBe(
      codeMigrations().length + 1,
    );
  } finally {
    await db2.close();
  }
  expect(existsSync(path.join(dataDir, 'demo.json'))).toBe(false);
}, 240_000);

it('the shipped migrations are in time order: a database they built is never taken for a newer one', () => {
  // Drizzle applies "every migration newer than the last recorded one" and `serve` calls a database
  // newer when its last migration is later than the code's last: both read the journal's `when`.
  // A migration merged with an older timestamp than its predecessor would be skipped on upgrade and
  // make every restart refuse the database it just built.
  const when = codeMigrations().map((m) => m.when);
  for (let i = 1; i < when.length; i++) expect(when[i], `migration ${i}`).toBeGreaterThan(when[i - 1]!);
});
