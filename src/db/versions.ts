// Workspace cache versions (issue 17; migration 0006_cache_versions). On PostgreSQL several processes
// share the data, and a change made through one must hold at the very next call on every other one.
// Triggers bump `sitegate_versions.v` of the workspace a changed row belongs to, in the changing
// transaction; row '*' is bumped by TRUNCATE and counts for every workspace. The edge reads the
// caller's version once per request (one indexed read, a prepared statement) and the caches only
// return what they hold under that same version, so nothing cached before a committed revocation,
// role change or withheld area is used after it. (PGlite, one process, uses the change feed instead.)
import { type Column, type SQL, sql } from 'drizzle-orm';

const VERSION_SQL = `select coalesce(sum(v), 0)::text as v from sitegate_versions where company_id = $1 or company_id = '*'`;

/** The version as a column of a query that reads a workspace's row anyway (same snapshot). */
export function cacheVersionOf(companyId: Column | SQL): SQL<string> {
  return sql<string>`(select coalesce(sum(v), 0)::text from sitegate_versions where company_id = ${companyId} or company_id = '*')`;
}

type Queryable = {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Array<{ v: string }> }>;
};

/** Reads a workspace's current cache version over the pool: one round trip, parsed once per connection. */
export function versionReader(pool: Queryable): (companyId: string) => Promise<string> {
  return async (companyId) => {
    const { rows } = await pool.query({
      name: 'sitegate_cache_version',
      text: VERSION_SQL,
      values: [companyId],
    });
    return rows[0]?.v ?? '0';
  };
}
