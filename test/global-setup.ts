// Once per `vitest run`: a migrated embedded database image that every test file's in-memory PGlite
// starts from (test/helpers/db.ts), instead of each file running initdb and the migrations itself —
// that cold start was most of a test file's set-up time. The image is keyed by the migrations and the
// PGlite version, so it is rebuilt whenever either changes and reused across runs otherwise.
// Not used on PostgreSQL (DATABASE_URL) or with SITEGATE_TEST_IMAGE=0 (the cold start, for comparison).
// On PostgreSQL: a migrated template database for this run, which test/setup-database.ts copies into
// one database per test file; all of them are dropped when the run ends.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGLITE_START_PARAMS, migrationsFolder, openDatabase } from '../src/db/client.js';
import { admin, createDatabase, dropDatabase } from './helpers/pg-admin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite image, or '' to start each database cold. */
    pgliteImage: string;
    /** On PostgreSQL: the server (DATABASE_URL as given), the run's template and its files' prefix. */
    pgTemplate: { server: string; template: string; prefix: string } | null;
    /** A migrated embedded data folder (`pgdata`) for child processes to start from, or ''. */
    pgliteDataDir: string;
  }
}

function imageKey(): string {
  const h = createHash('sha256');
  const pkg = JSON.parse(
    readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  );
  h.update(`${pkg.version}\n${PGLITE_START_PARAMS.join(' ')}\n`);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const p = path.join(dir, name.name);
      if (name.isDirectory()) walk(p);
      else h.update(`${path.relative(migrationsFolder, p)}\n`).update(readFileSync(p));
    }
  };
  walk(migrationsFolder);
  return h.digest('hex').slice(0, 16);
}

export default async function setup(project: TestProject) {
  const server = process.env.DATABASE_URL;
  project.provide('pgTemplate', null);
  if (process.env.SITEGATE_TEST_IMAGE === '0') {
    project.provide('pgliteImage', '');
    project.provide('pgliteDataDir', '');
    if (server) return postgresTemplate(project, server);
    return;
  }
  const key = imageKey();
  // Also on PostgreSQL: some children run on the embedded database whatever the run's backend.
  project.provide('pgliteDataDir', await migratedDataDir(key));
  if (server) {
    project.provide('pgliteImage', '');
    return postgresTemplate(project, server);
  }
  const file = path.join(tmpdir(), `sitegate-test-pglite-${key}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ memory: true });
    const image = await database.pglite!.dumpDataDir('none');
    await database.close();
    // Another run may build the same image at the same time: write aside, then rename (atomic).
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await image.arrayBuffer()));
    renameSync(part, file);
  }
  project.provide('pgliteImage', file);
}

/**
 * A data folder as a first start leaves it (initdb, the migrations, synced), made once per key: a
 * child `sitegate` whose test is not about its first start copies it (test/reliability/harness.ts)
 * instead of paying initdb and the migrations in a child process of its own.
 */
async function migratedDataDir(key: string): Promise<string> {
  const dir = path.join(tmpdir(), `sitegate-test-datadir-${key}`);
  const pgdata = path.join(dir, 'pgdata');
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) return pgdata;
  const part = mkdtempSync(`${dir}.part-`);
  const database = await openDatabase({ dataDir: part });
  await database.close();
  try {
    renameSync(part, dir);
  } catch {
    // Another run made it first.
    rmSync(part, { recursive: true, force: true });
  }
  return pgdata;
}

/** Makes and migrates the run's template; returns the teardown that drops it and every file's copy. */
async function postgresTemplate(project: TestProject, server: string): Promise<() => Promise<void>> {
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const template = `sg_t_${run}`;
  const prefix = `sg_f_${run}_`;
  const database = await openDatabase({ databaseUrl: await createDatabase(server, template) });
  await database.close();
  project.provide('pgTemplate', { server, template, prefix });
  return async () => {
    const { rows } = await admin(
      server,
      'select datname from pg_database where starts_with(datname, $1) or datname = $2',
      [prefix, template],
    );
    for (const { datname } of rows) await dropDatabase(server, datname);
  };
}
