// Before each test file: the database it runs on. On PostgreSQL it is copied from the run's migrated
// template (test/global-setup.ts) and DATABASE_URL points at it for the file and every process it
// starts; on PGlite test/helpers/db.ts opens an in-memory one from the migrated image.
// Global sweeps (retention, mail retries, credit settling, salt rotation) act on every row of a
// database; on one database shared by all files, a test that ran one under a moved clock reached the
// rows of files running beside it. So each file gets a database of its own, opened for it and closed
// after it; within a file, tests isolate by fixture.
// The tool files are the exception (sharesWorkerDatabase, test/helpers/worker-database.ts): they make a
// fresh workspace per test and run no global sweep, so consecutive tool files in a worker keep one
// database open, and on PostgreSQL every tool file of the worker uses the same one. A file that is not
// a tool file closes whatever a tool file before it left open, and starts on its own.
import { randomBytes } from 'node:crypto';
import { afterAll, expect, inject } from 'vitest';
import { createDatabase } from './helpers/pg-admin.js';
import { releaseTestDatabase } from './helpers/db.js';
import { sharesWorkerDatabase, workerDatabase } from './helpers/worker-database.js';

const pg = inject('pgTemplate');
const shares = sharesWorkerDatabase(expect.getState().testPath);
if (!shares) await releaseTestDatabase();
if (pg) {
  const fresh = async () =>
    createDatabase(pg.server, `${pg.prefix}${randomBytes(5).toString('hex')}`, pg.template);
  if (shares) {
    workerDatabase.url ||= await fresh();
    process.env.DATABASE_URL = workerDatabase.url;
  } else {
    process.env.DATABASE_URL = await fresh();
  }
}
if (!shares) afterAll(releaseTestDatabase);
