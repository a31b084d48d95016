// The database test/setup-database.ts made for this worker's module graph on PostgreSQL. Test files
// whose project runs with `isolate: false` (vitest.config.ts) share their worker's modules, so they
// share this one database too, as they share test/helpers/db.ts's open connection to it.
export const workerDatabase = { url: '' };
