// PostgreSQL race tests hold a row lock from a client of their own and watch who waits on it.
import type pg from 'pg';

/** Backends of this database waiting on a lock while running a statement that reads `from "<table>"`. */
export async function lockWaiters(watch: pg.Client, table: string): Promise<number> {
  const r = await watch.query(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
    [`%from "${table}"%`],
  );
  return Number(r.rows[0].n);
}
