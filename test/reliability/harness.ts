// The fault suite's harness: a real `sitegate serve --demo` child on the embedded database
// in a DATA_DIR of its own, armed with one test-only fault point (src/ops/fault.ts) that makes it kill
// itself with SIGKILL at that exact moment; then the test restarts it, or opens its database, and
// checks what survived. Every wait is bounded.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/client.js';
import { uniqueTag } from '../helpers/db.js';
import { createDatabase, dropDatabase } from '../helpers/pg-admin.js';
import { type Running, sitegate, until } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';

export type DemoOut = {
  tokens: { default: string; all: string; workspace: string };
  websites: { main: string; events: string; otherTenant: string };
};

export type Child = { server: Running; base: string; demo: DemoOut; dataDir: string };

export const newDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `sitegate-${name}-`));

/**
 * Puts into `dataDir` an embedded database already made and migrated, copied from the run's
 * (test/global-setup.ts): for a child whose test is not about a first start, which would otherwise
 * spend most of its start-up on initdb. Outside Vitest (a benchmark) the folder is left as it is.
 */
export function withMigratedDatabase(dataDir: string): string {
  let template = '';
  try {
    template = inject('pgliteDataDir');
  } catch {
    // Outside Vitest: a first start.
  }
  if (template) cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
  return dataDir;
}

/** A new DATA_DIR for a `sitegate serve` child: on the embedded database, with it made already. */
export function preparedDataDir(name: string): string {
  const dir = newDataDir(name);
  return process.env.DATABASE_URL ? dir : withMigratedDatabase(dir);
}

/**
 * The backend of this run: with DATABASE_URL, a fresh PostgreSQL database of the suite's own (dropped
 * at the end); otherwise the embedded database in the child's DATA_DIR.
 */
export async function backend(): Promise<{
  env: Record<string, string>;
  databaseUrl?: string;
  drop(): Promise<void>;
}> {
  const server = process.env.DATABASE_URL;
  if (!server) return { env: {}, drop: async () => {} };
  const name = `sg_fault_${uniqueTag().toLowerCase()}`;
  const databaseUrl = await createDatabase(server, name);
  return {
    env: { DATABASE_URL: databaseUrl },
    databaseUrl,
    drop: () => dropDatabase(server, name),
  };
}

/**
 * Starts `sitegate serve --demo` on `dataDir` and waits (bounded) until it is ready; on `env.PORT`
 * when given (a replacement taking its predecessor's place), else on a free port.
 */
export async function start(
  dataDir: string,
  env: Record<string, string> = {},
  demoOut = path.join(dataDir, 'demo-out.json'),
  wrap?: string[],
): Promise<Child> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // --demo also starts the development identity provider: on a port of its own, so suites that run
  // side by side never collide on its default (8788).
  const idpPort = await freePort();
  const server = sitegate(['serve', '--demo', '--demo-out', demoOut], {
    env: {
      IDP_PORT: String(idpPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      ...env,
      PORT: String(port),
    },
    wrap,
  });
  const base = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (server.child.exitCode !== null || server.child.signalCode !== null)
        throw new Error(`exited ${server.child.exitCode}/${server.child.signalCode}: ${server.err()}`);
      return (await fetch(`${base}/readyz`).catch(() => null))?.status === 200;
    },
    1200,
    () => `${server.out()}\n${server.err()}`,
  );
  return { server, base, dataDir, demo: JSON.parse(readFileSync(demoOut, 'utf8')) as DemoOut };
}

/**
 * A second process on the same PostgreSQL as `seeder`: the demo's tokens live only in the DATA_DIR of
 * the process that seeded it (never in the database), so this one printed none; its test uses the
 * seeder's.
 */
export function besides(child: Child, seeder: Child): Child {
  child.demo.tokens ??= seeder.demo.tokens;
  return child;
}

/** One tools/call; resolves to the envelope, or to null when the server died before answering. */
export async function call(
  c: Child,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; data?: any; error?: { code: string } } | null> {
  try {
    const r = await postMcp(`${c.base}/api/mcp`, token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const body = (await r.json()) as { result: { structuredContent: any } };
    return body.result.structuredContent;
  } catch {
    return null;
  }
}

/** Waits (bounded) until the child has died of SIGKILL. */
export async function killed(c: Child): Promise<void> {
  const run = await Promise.race([
    c.server.done,
    new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref()),
  ]);
  if (!run) {
    c.server.child.kill('SIGKILL');
    throw new Error('the fault point was never reached');
  }
  if (run.signal !== 'SIGKILL')
    throw new Error(`expected SIGKILL, got ${run.code}/${run.signal}: ${run.err}`);
}

/** Stops a child for good (SIGKILL is fine: nothing of the test's depends on a clean stop). */
export async function stop(c: Child): Promise<void> {
  if (c.server.child.exitCode === null && c.server.child.signalCode === null) c.server.child.kill('SIGTERM');
  await c.server.done;
}

/** Opens the child's database after it has gone (the embedded one is single-process). */
export async function withDb<T>(
  where: { dataDir: string; databaseUrl?: string },
  f: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
) {
  const database = await openDatabase(
    where.databaseUrl ? { databaseUrl: where.databaseUrl } : { dataDir: where.dataDir },
  );
  try {
    return await f(database.db);
  } finally {
    await database.close();
  }
}
