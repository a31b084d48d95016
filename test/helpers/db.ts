// One database per test file: in-memory PGlite by default, the real PostgreSQL when DATABASE_URL is
// set (as .ci/run does; test/setup-database.ts has given the file a database of its own by then).
// Within a file, tests isolate by fixture (a fresh workspace each).
// The in-memory PGlite starts from the migrated image test/global-setup.ts made once for the run.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';

let shared: Promise<Database> | null = null;

export function testDatabase(): Promise<Database> {
  shared ??= open();
  return shared;
}

/**
 * Closes this module graph's database so that the next test file opens its own. Run after each file
 * of a project whose files share a worker's modules but not its database (test/setup-database.ts).
 */
export async function releaseTestDatabase(): Promise<void> {
  const open = shared;
  shared = null;
  if (open) await (await open).close();
}

/** The migrated image, when running under Vitest; a benchmark (outside it) migrates its own database. */
function pgliteImage(): string {
  try {
    return inject('pgliteImage') ?? '';
  } catch {
    return '';
  }
}

function open(): Promise<Database> {
  const image = process.env.DATABASE_URL ? '' : pgliteImage();
  return openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    memory: true,
    poolSize: 20,
    memoryImage: image ? new Blob([readFileSync(image)]) : undefined,
  });
}

let n = 0;
/** A tag unique across files and runs, for fixture emails and hostnames. */
export function uniqueTag(): string {
  n += 1;
  return `t${process.pid.toString(36)}${Date.now().toString(36)}${n}`;
}
