// The process's change-feed caches (src/db/change-feed.ts): who a token is, the gate's live facts,
// and the results of read tools declared `cacheable`. Any committed change to a table they read
// clears them, in this process and (through LISTEN/NOTIFY) in every other one.
import type { Caller } from '../kernel/caller.js';
import { type ChangeFeed, FeedCache } from '../db/change-feed.js';
import { GATE_TABLES, type GateFactsCache } from '../gate/authorize.js';
import type { ListingFacts, ListingFactsCache } from '../gate/listing.js';

export type Caches = {
  callers: FeedCache<Caller | null>;
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

export function createCaches(feed: ChangeFeed): Caches {
  return {
    callers: new FeedCache<Caller | null>(feed, ['connections'], 10_000, (v) => v !== null),
    gate: new FeedCache(feed, GATE_TABLES),
    reads: new FeedCache<unknown>(feed, READ_TABLES, 2_000),
    listing: new FeedCache<ListingFacts>(feed, GATE_TABLES),
  };
}
