// What tools/list may show a connection (R-TOOL-6): the gate's own live facts — the creator's
// role, the areas the agency withheld, the advanced-editor grant — read for the connection's reach
// in one query. Listing is advice to the client; the gate still decides every call (authorize.ts).
import { and, eq } from 'drizzle-orm';
import type { Caller } from '../kernel/caller.js';
import type { FeedCache } from '../db/change-feed.js';
import type { Db } from '../db/client.js';
import { authPart } from '../db/versions.js';
import { websites } from '../db/schema.js';
import { type GateRule, denial, gateFacts } from './authorize.js';
import { type Role, isRole, roleRank } from '../kernel/scopes.js';

export type ListingFacts = {
  /** The creator's role on the connection's own website (workspace-level tools act there). */
  siteRole: Role | null;
  /** The highest role the creator holds on any website this connection reaches. */
  bestRole: Role | null;
  withheldAreas: readonly string[];
  advancedEditor: boolean;
};

export type ListingFactsCache = FeedCache<ListingFacts>;

export async function listingFacts(db: Db, caller: Caller, cache?: ListingFactsCache): Promise<ListingFacts> {
  const load = () => loadListingFacts(db, caller);
  if (!cache) return load();
  const key = [caller.companyId, caller.creatorId, caller.reach, caller.websiteId].join('\u0000');
  // What tools/list shows depends on auth facts only: writes to content do not invalidate it.
  const version = caller.cacheVersion === undefined ? undefined : authPart(caller.cacheVersion);
  return cache.get(key, load, version);
}

async function loadListingFacts(db: Db, caller: Caller): Promise<ListingFacts> {
  const reach =
    caller.reach === 'website'
      ? and(eq(websites.companyId, caller.companyId), eq(websites.id, caller.websiteId))
      : eq(websites.companyId, caller.companyId);
  const rows = await gateFacts(db, caller.creatorId, reach);
  let siteRole: Role | null = null;
  let bestRole: Role | null = null;
  for (const r of rows) {
    const role = r.role && isRole(r.role) ? r.role : null;
    if (!role) continue;
    if (r.website.id === caller.websiteId) siteRole = role;
    if (!bestRole || roleRank(role) > roleRank(bestRole)) bestRole = role;
  }
  return {
    siteRole,
    bestRole,
    withheldAreas: rows[0]?.withheldAreas ?? [],
    advancedEditor: rows[0]?.advancedEditor ?? false,
  };
}

/** Whether a call under `rule` could pass the gate for this connection somewhere it reaches. */
export function listable(caller: Pick<Caller, 'scopes'>, rule: GateRule, facts: ListingFacts): boolean {
  const role = rule.workspaceLevel ? facts.siteRole : facts.bestRole;
  return denial(caller.scopes, rule, { ...facts, role }) === null;
}
