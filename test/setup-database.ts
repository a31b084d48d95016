// Before each test file on PostgreSQL: a database of the file's own, copied from the run's migrated
// template (test/global-setup.ts), and DATABASE_URL pointed at it for the file and every process it
// starts. Global sweeps (retention, mail retries, credit settling, salt rotation) act on every row of
// a database; on one database shared by all files, a test that ran one under a moved clock reached
// the rows of files running beside it. Within a file, tests still isolate by fixture.
// Files run without isolation (the tool files, vitest.config.ts) keep the modules of the files before
// them in their worker, and with them the database test/helpers/db.ts opened: they reuse it rather
// than make one per file that nothing would open.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from './helpers/pg-admin.js';
import { workerDatabase } from './helpers/worker-database.js';

const pg = inject('pgTemplate');
if (pg) {
  if (!workerDatabase.url) {
    const name = `${pg.prefix}${randomBytes(5).toString('hex')}`;
    workerDatabase.url = await createDatabase(pg.server, name, pg.template);
  }
  process.env.DATABASE_URL = workerDatabase.url;
}
