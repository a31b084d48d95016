// Before each test file: a database of the file's own. On PostgreSQL it is copied from the run's
// migrated template (test/global-setup.ts) and DATABASE_URL points at it for the file and every
// process it starts; on PGlite test/helpers/db.ts opens an in-memory one from the migrated image.
// Global sweeps (retention, mail retries, credit settling, salt rotation) act on every row of a
// database; on one database shared by all files, a test that ran one under a moved clock reached the
// rows of files running beside it. Within a file, tests still isolate by fixture.
// Files of a project that runs without isolation (vitest.config.ts) keep the modules of the files
// before them in their worker; after each file its database is closed, so the next opens its own.
// The tool files (`dbPerWorker`) make a fresh workspace per test and touch no global sweep: they reuse
// their worker's database rather than make one per file.
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { createDatabase } from './helpers/pg-admin.js';
import { releaseTestDatabase } from './helpers/db.js';
import { workerDatabase } from './helpers/worker-database.js';

const pg = inject('pgTemplate');
const perWorker = inject('dbPerWorker') === true;
if (pg) {
  if (!workerDatabase.url || !perWorker) {
    const name = `${pg.prefix}${randomBytes(5).toString('hex')}`;
    workerDatabase.url = await createDatabase(pg.server, name, pg.template);
  }
  process.env.DATABASE_URL = workerDatabase.url;
}
if (!perWorker) afterAll(releaseTestDatabase);
