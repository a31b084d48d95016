// Workspace cache versions (docs/performance.md; migration 0007_cache_versions). On PostgreSQL several
// processes share the data, and a change made through one must hold at the very next call on every other one.
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

/**
 * Reads a workspace's current cache version over the pool: one round trip, parsed once per
 * connection. Requests for one workspace that arrive while its read is in flight share the next
 * read, which is sent only after all of them arrived: each caller still gets a snapshot taken after
 * it asked (so a revocation committed before its request is seen), but under load one statement
 * serves every call that queued behind the last one, not one statement per call. Each read ends
 * within the pool's statement bound (src/db/pg-bounds.ts), so a read stuck on a stalled database
 * holds the requests queued behind it for two bounds at most, and they then fail rather than hang.
 */
export function versionReader(pool: Queryable): (companyId: string) => Promise<string> {
  const read = async (companyId: string) => {
    const { rows } = await pool.query({
      name: 'sitegate_cache_version',
      text: VERSION_SQL,
      values: [companyId],
    });
    return rows[0]?.v ?? '0.0';
  };
  const running = new Map<string, Promise<string>>();
  const queued = new Map<string, Promise<string>>();
  const start = (companyId: string): Promise<string> => {
    const p: Promise<string> = read(companyId).finally(() => {
      if (running.get(companyId) === p) running.delete(companyId);
    });
    running.set(companyId, p);
    return p;
  };
  return (companyId) => {
    const next = queued.get(companyId);
    if (next) return next; // not sent yet: its snapshot will be later than this request
    const current = running.get(companyId);
    if (!current) return start(companyId);
    // The read in flight may have been sent before this request arrived: wait for the next one.
    const p = current
      .catch(() => undefined)
      .then(() => {
        queued.delete(companyId);
        return start(companyId);
      });
    queued.set(companyId, p);
    return p;
  };
}
