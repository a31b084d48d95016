// Attack suite, the demo's tokens at rest: tokens are stored only as a SHA-256 and a display prefix,
// the demo's too. A real `sitegate serve --demo` seeds the demo, prints its tokens and writes them with
// --demo-out; then the database is searched for their plaintext: on the embedded database every byte
// of its files, on PostgreSQL every text, varchar and json(b) column of every table. The tokens live
// only in DATA_DIR/demo-tokens.json (mode 0600), from which a later start prints them again; a start
// without that file prints no token and says how to get one. Upgraded installs: the migration that
// strips tokens from demo markers written by earlier versions is checked on such a row.
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSeed } from '../../src/db/schema.js';
import { DEMO_TOKENS_FILE } from '../../src/demo/demo-tokens.js';
import { testDatabase } from '../helpers/db.js';
import { backend, newDataDir, preparedDataDir, start, stop } from '../reliability/harness.js';

let where: Awaited<ReturnType<typeof backend>>;
beforeAll(async () => {
  where = await backend();
});
afterAll(() => where?.drop());

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Where each secret appears: the embedded database's files, or PostgreSQL's text-like columns. */
async function foundIn(dataDir: string, secrets: string[]): Promise<string[]> {
  if (!where.databaseUrl) {
    const hits: string[] = [];
    for (const file of filesUnder(path.join(dataDir, 'pgdata'))) {
      const bytes = readFileSync(file);
      for (const s of secrets) if (bytes.includes(Buffer.from(s))) hits.push(`${file}: ${s.slice(0, 12)}…`);
    }
    return hits;
  }
  const client = new pg.Client({ connectionString: where.databaseUrl });
  await client.connect();
  try {
    const { rows: columns } = await client.query<{ t: string; c: string }>(
      `select table_name as t, column_name as c from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb')`,
    );
    expect(columns.length).toBeGreaterThan(20);
    const hits: string[] = [];
    const id = (name: string) => client.escapeIdentifier(name);
    for (const { t, c } of columns) {
      for (const s of secrets) {
        const { rows } = await client.query(
          `select count(*)::int as n from ${id(t)} where ${id(c)}::text like '%' || $1 || '%'`,
          [s],
        );
        if (rows[0].n > 0) hits.push(`${t}.${c}: ${s.slice(0, 12)}…`);
      }
    }
    return hits;
  } finally {
    await client.end();
  }
}

describe('the demo’s tokens', () => {
  it('are never in the database; kept 0600 in DATA_DIR, printed again from there, or not at all', async () => {
    const dataDir = preparedDataDir('demo-at-rest');
    const out = path.join(newDataDir('demo-at-rest-out'), 'demo.json');
    const first = await start(dataDir, where.env, out);
    const printed = first.server.out();
    await stop(first);
    const tokens = Object.values(first.demo.tokens);
    expect(tokens).toHaveLength(3);
    for (const t of tokens) expect(t).toMatch(/^sg_live_[0-9A-Za-z]{32}$/);
    expect(printed).toContain(first.demo.tokens.default);
    // --demo-out keeps the documented shape.
    expect(Object.keys(JSON.parse(readFileSync(out, 'utf8'))).sort()).toEqual(
      ['baseUrl', 'mcpUrl', 'tokens', 'users', 'websites'].sort(),
    );
    // The secret part alone must not be there either.
    const secrets = [...tokens, ...tokens.map((t) => t.slice('sg_live_'.length))];
    expect(await foundIn(dataDir, secrets)).toEqual([]);

    const kept = path.join(dataDir, DEMO_TOKENS_FILE);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(kept, 'utf8')).tokens).toEqual(first.demo.tokens);

    const again = await start(dataDir, where.env, out);
    await stop(again);
    expect(again.demo.tokens).toEqual(first.demo.tokens);
    expect(await foundIn(dataDir, secrets)).toEqual([]);

    // Without the file (another machine on the same PostgreSQL, or the file deleted): no token, and how.
    rmSync(kept);
    const bare = await start(dataDir, where.env, out);
    const said = bare.server.out();
    await stop(bare);
    expect(bare.demo.tokens).toBeNull();
    for (const t of tokens) expect(said).not.toContain(t);
    expect(said).toMatch(/create a connection at\s+\S+\/settings\/advanced\/developers/);
    expect(await foundIn(dataDir, secrets)).toEqual([]);
  }, 240_000);

  it('an upgraded install: the migration takes the tokens out of an old demo marker', async () => {
    const { db } = await testDatabase();
    const old = {
      users: { owner: { email: 'owner@demo.sitegate.test', password: 'owner-demo-pass' } },
      websites: { main: 'web_x' },
      tokens: { default: 'sg_live_oldplaintexttokenoldplaintext', all: 'sg_live_b', workspace: 'sg_live_c' },
    };
    await db
      .insert(demoSeed)
      .values({ id: 'demo', output: old })
      .onConflictDoUpdate({
        target: demoSeed.id,
        set: { output: old },
      });
    const folder = path.join(import.meta.dirname, '../../src/db/migrations');
    const file = readdirSync(folder).find((f) => f.endsWith('_demo_seed_no_tokens.sql'))!;
    const migration = readFileSync(path.join(folder, file), 'utf8');
    await db.execute(sql.raw(migration));
    const [row] = await db.select().from(demoSeed).where(eq(demoSeed.id, 'demo'));
    expect(row!.output).toEqual({ users: old.users, websites: old.websites });
    expect(JSON.stringify(row!.output)).not.toContain('sg_live_');
  });
});
