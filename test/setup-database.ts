// Before each test file on PostgreSQL: a database of the file's own, copied from the run's migrated
// template (test/global-setup.ts), and DATABASE_URL pointed at it for the file and every process it
// starts. Global sweeps (retention, mail retries, credit settling, salt rotation) act on every row of
// a database; on one database shared by all files, a test that ran one under a moved clock reached
// the rows of files running beside it. Within a file, tests still isolate by fixture.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from './helpers/pg-admin.js';

const pg = inject('pgTemplate');
if (pg) {
  const name = `${pg.prefix}${randomBytes(5).toString('hex')}`;
  process.env.DATABASE_URL = await createDatabase(pg.server, name, pg.template);
}
