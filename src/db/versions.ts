// Workspace cache versions (issue 17; migration 0007_cache_versions). On PostgreSQL several processes
// share the data, and a change made through one must hold at the very next call on every other one.
// Triggers bump the versions of the workspace a changed row belongs to, in the changing transaction:
// `auth` (connections, members, the workspace's grants and areas, which websites it has) and
// `content` (what cacheable reads and the gate's website row show); row '*' is bumped by TRUNCATE
// and counts for every workspace. The edge reads the caller's versions once per request (one indexed
// read, a prepared statement) and the caches only return what they hold under those same versions, so
// nothing cached before a committed revocation, role change or withheld area is used after it.
// A version is written `<auth>.<content>`. (PGlite, one process, uses the change feed instead.)
import { type SQL, sql } from 'drizzle-orm';

const VERSION_SQL = `select coalesce(sum(auth), 0) || '.' || coalesce(sum(content), 0) as v
  from sitegate_versions where company_id = $1 or company_id = '*'`;

/**
 * The version as a column of a query that reads a workspace's row anyway (same snapshot).
 * `companyId` must be table-qualified: a bare "company_id" would name sitegate_versions' own column.
 */
export function cacheVersionOf(companyId: SQL): SQL<string> {
  return sql<string>`(select coalesce(sum(sv.auth), 0) || '.' || coalesce(sum(sv.content), 0) from sitegate_versions sv where sv.company_id = ${companyId} or sv.company_id = '*')`;
}

/** The `auth` part of a version: what who-a-token-is and the gate's decision depend on. */
export function authPart(version: string): string {
  return version.slice(0, version.indexOf('.'));
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
    return rows[0]?.v ?? '0.0';
  };
}
