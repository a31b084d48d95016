// One database per test file: in-memory PGlite by default, the real PostgreSQL when DATABASE_URL is
// set (as .ci/run does). Tests isolate by fixture (a fresh demo workspace each), never by database.
import { type Database, openDatabase } from '../../src/db/client.js';

let shared: Promise<Database> | null = null;

export function testDatabase(): Promise<Database> {
  shared ??= openDatabase({ databaseUrl: process.env.DATABASE_URL, memory: true, poolSize: 20 });
  return shared;
}

let n = 0;
/** A tag unique across files and runs, for fixture emails and hostnames. */
export function uniqueTag(): string {
  n += 1;
  return `t${process.pid.toString(36)}${Date.now().toString(36)}${n}`;
}
