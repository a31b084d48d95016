// docs/operating.md step 9 on PostgreSQL, its commands run as written by bash: the dump is readable by
// its owner only, a restore into a new database (created first) holds every row, and `pg_restore
// --clean` over a database restores it again. Replaced, and only these: the guide's example address
// `postgres://sitegate:…@db.internal:5432/` becomes this test server's, the database name
// `sitegate_restored` a name of the test's own, the dump's example date the file the first command
// wrote, and `--owner=sitegate` is left out (this server has no `sitegate` role).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { seedDemo } from '../../src/demo/seed.js';
import { uniqueTag } from '../helpers/db.js';
import { dropDatabase } from '../helpers/pg-admin.js';

const source = process.env.DATABASE_URL;
const guide = readFileSync('docs/operating.md', 'utf8');
const step9 = guide.slice(guide.indexOf('## 9. Backups'), guide.indexOf('**Embedded**'));
const commands = [...step9.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const restoredName = `sg_restored_${uniqueTag().toLowerCase()}`;

afterAll(async () => {
  if (source) await dropDatabase(source, restoredName);
});

/** Runs one of the guide's blocks in bash. */
function bash(script: string, cwd: string, env: Record<string, string>) {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(r.status, `${script}\n${r.stderr}`).toBe(0);
}

async function counts(url: string) {
  const database = await openDatabase({ databaseUrl: url });
  try {
    const { rows } = (await database.db.execute(
      sql`select (select count(*) from websites) as websites, (select count(*) from pages) as pages,
        (select count(*) from sections) as sections, (select count(*) from leads) as leads,
        (select count(*) from connections) as connections, (select count(*) from blobs) as blobs`,
    )) as unknown as { rows: Record<string, string>[] };
    return rows[0]!;
  } finally {
    await database.close();
  }
}

it.runIf(source)(
  'pg_dump to a 0600 file, restore into a new database, restore with --clean',
  async () => {
    expect(commands).toHaveLength(3);
    const database = await openDatabase({ databaseUrl: source! });
    try {
      await seedDemo(database.db, { tag: uniqueTag() });
    } finally {
      await database.close();
    }
    const before = await counts(source!);
    expect(Number(before.pages)).toBeGreaterThan(0);

    const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-pgdump-'));
    bash(commands[0]!, dir, { DATABASE_URL: source! });
    const [dump] = readdirSync(dir).filter((f) => /^sitegate-\d{4}-\d{2}-\d{2}\.dump$/.test(f));
    expect(dump).toBeDefined();
    expect(statSync(path.join(dir, dump!)).mode & 0o777).toBe(0o600);

    const server = new URL(source!);
    const base = `${server.protocol}//${server.username}@${server.host}/`;
    const restored = `${base}${restoredName}`;
    const swap = (script: string) => {
      const swaps: Array<[string, string]> = [
        ['postgres://sitegate:…@db.internal:5432/', base],
        ['sitegate_restored', restoredName],
        ['sitegate-2026-11-23.dump', dump!],
        ['--owner=sitegate ', ''],
      ];
      let text = script;
      for (const [from, to] of swaps) if (text.includes(from)) text = text.replaceAll(from, to);
      return text;
    };
    const pgEnv = { PGHOST: server.hostname, PGPORT: server.port || '5432', PGUSER: server.username };
    bash(swap(commands[1]!), dir, pgEnv);
    expect(await counts(restored)).toEqual(before);

    bash(swap(commands[2]!), dir, { ...pgEnv, DATABASE_URL: restored });
    expect(await counts(restored)).toEqual(before);
  },
  180_000,
);
