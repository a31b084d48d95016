// The process's caches: who a token is, the gate's live facts, and the results of read tools declared
// `cacheable`. On PGlite any committed change to a table they read clears them (change feed, LISTEN/
// NOTIFY in-process). On PostgreSQL, where several processes share the data, entries are kept per
// workspace cache version (src/db/versions.ts): the edge reads the caller's version on every request
// and nothing cached under an older one is used again.
import type { Caller } from '../kernel/caller.js';
import { type ChangeFeed, FeedCache } from '../db/change-feed.js';
import { authPart } from '../db/versions.js';
import { GATE_TABLES, type GateFactsCache } from '../gate/authorize.js';
import type { ListingFacts, ListingFactsCache } from '../gate/listing.js';

export type Caches = {
  /**
   * The caller behind a token hash: on PGlite from the change-feed cache; on PostgreSQL from this
   * process's map when the workspace version it was read at is still current (one indexed read),
   * else loaded again. `load` must set `cacheVersion` for the result to be kept on PostgreSQL.
   */
  caller(tokenHash: string, load: () => Promise<Caller | null>): Promise<Caller | null>;
  gate: GateFactsCache;
  reads: FeedCache<unknown>;
  /** The gate facts tools/list filters by (role, withheld areas, advanced-editor grant). */
  listing: ListingFactsCache;
};

/** Tables a cacheable read tool may depend on. */
const READ_TABLES = [
  'websites',
  'website_members',
  'companies',
  'pages',
  'sections',
  'brands',
  'company_memory',
  'domains',
];

const MAX_CALLERS = 10_000;

export function createCaches(
  feed: ChangeFeed,
  cacheVersion?: (companyId: string) => Promise<string>,
): Caches {
  const callers = new FeedCache<Caller | null>(feed, ['connections'], MAX_CALLERS, (v) => v !== null);
  const versioned = new Map<string, Caller>();
  return {
    async caller(hash, load) {
      if (feed.live || !cacheVersion) return callers.get(hash, load);
      const hit = versioned.get(hash);
      if (hit) {
        // Who the token is depends only on the auth part; the full current version goes on, so the
        // gate and read caches of this request are keyed by what is current now.
        const now = await cacheVersion(hit.companyId);
        if (authPart(now) === authPart(hit.cacheVersion!)) return { ...hit, cacheVersion: now };
      }
      const fresh = await load();
      if (fresh?.cacheVersion === undefined) versioned.delete(hash);
      else {
        if (versioned.size >= MAX_CALLERS) versioned.clear();
        versioned.set(hash, fresh);
      }
      return fresh;
    },
    gate: new FeedCache(feed, GATE_TABLES),
    reads: new FeedCache<unknown>(feed, READ_TABLES, 2_000),
    listing: new FeedCache<ListingFacts>(feed, GATE_TABLES),
  };
}
