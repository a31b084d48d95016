// The one choke point (R-SURF-3, R-SURF-4, R-TOOL-1): scope on the connection ∩ the creator's live role on
// the target website ∩ the areas the agency has not withheld ∩ the advanced-editor grant.
// `decide` is pure (table-tested); `authorize` loads the live facts in one query and applies it.
import { type Placeholder, type SQL, and, eq, isNull, sql } from 'drizzle-orm';
import type { Caller } from '../kernel/caller.js';
import type { FeedCache } from '../db/change-feed.js';
import type { Db } from '../db/client.js';
import { fixedSelect } from '../db/named.js';
import { companies, websiteMembers, websites } from '../db/schema.js';
import { authPart } from '../db/versions.js';
import { Refusal, invalidInput, notFound } from '../kernel/errors.js';
import { siteRoom } from './site-limit.js';
import { type Area, type Role, type Scope, isRole, roleRank } from '../kernel/scopes.js';

/**
 * A website as the gate hands it over: who it is and whose. Its other columns (name, revisions,
 * settings) change with every content write, so the gate does not carry them: a tool that needs them
 * reads the row in its own transaction (websiteRowOf, src/domain/sites/row.ts).
 */
export type SiteRef = { id: string; companyId: string };

/** What the gate needs to know about a tool: the declaration, never the implementation. */
export type GateRule = {
  name: string;
  scope: Scope;
  area: Area;
  role: Role;
  /** Needs the workspace's invite-only advanced-editor grant (R-TOOL-4). */
  advanced?: boolean;
  /** Acts on the workspace, anchored to the connection's own website; takes no websiteId. */
  workspaceLevel?: boolean;
  /**
   * Creates a website (R-SITE-2): once the call is allowed, the gate refuses it with
   * site_limit_reached when the plan has no room (live count, never cached), before `run` does any
   * work. `exceptWith` names an input field whose presence means no site is created (a merge). The
   * committing transaction checks again with the company row locked (siteRoom, R-SITE-2).
   */
  createsSite?: true | { exceptWith: string };
};

/** Whether this call, with this input, would create a website under the rule's declaration. */
export function createsSite(rule: GateRule, input: Readonly<Record<string, unknown>>): boolean {
  if (!rule.createsSite) return false;
  return rule.createsSite === true || input[rule.createsSite.exceptWith] === undefined;
}

export type GateFacts = {
  /** The website row if it exists at all (any tenant), else null. */
  website: { id: string; companyId: string } | null;
  /** The connection creator's live role on that website, null if none. */
  role: Role | null;
  withheldAreas: readonly string[];
  advancedEditor: boolean;
};

/** Which website a call targets, before anything is loaded. Throws the refusal for a bad choice. */
export function targetWebsiteId(caller: Caller, rule: GateRule, requested: string | undefined): string {
  if (!caller.scopes.includes(rule.scope)) throw scopeMissing(rule);
  if (rule.workspaceLevel) return caller.websiteId;
  if (requested === undefined) {
    if (caller.reach === 'workspace') {
      throw invalidInput(
        'This connection reaches the whole workspace, so each call must name websiteId.',
        'Call list_sites to see the website ids.',
      );
    }
    return caller.websiteId;
  }
  // A single-site connection naming another site learns nothing: the same not_found as a missing id.
  if (caller.reach === 'website' && requested !== caller.websiteId) throw notFound('website');
  return requested;
}

/** Why a call would be refused, first reason first; null when the facts allow it. */
export type Denial = 'scope_missing' | 'area_disabled' | 'role_insufficient' | 'advanced_editor_required';

/**
 * The gate's conditions on the live facts, in the order they are reported. `decide` turns a denial
 * into its refusal; tools/list uses the same conditions to list only what could run (R-TOOL-6).
 */
export function denial(
  scopes: readonly Scope[],
  rule: GateRule,
  facts: Pick<GateFacts, 'role' | 'withheldAreas' | 'advancedEditor'>,
): Denial | null {
  if (!scopes.includes(rule.scope)) return 'scope_missing';
  if (facts.withheldAreas.includes(rule.area)) return 'area_disabled';
  if (!facts.role || roleRank(facts.role) < roleRank(rule.role)) return 'role_insufficient';
  if (rule.advanced && !facts.advancedEditor) return 'advanced_editor_required';
  return null;
}

/** The decision proper, given the live facts. Returns the role the call runs with. */
export function decide(caller: Caller, rule: GateRule, facts: GateFacts): Role {
  if (!caller.scopes.includes(rule.scope)) throw scopeMissing(rule);
  if (!facts.website || facts.website.companyId !== caller.companyId) throw notFound('website');
  const why = denial(caller.scopes, rule, facts);
  if (why === 'area_disabled') {
    throw new Refusal(
      'area_disabled',
      `The ${rule.area} area is switched off for this account by the agency that manages it.`,
      'Ask the agency to switch the area on; nothing an agent does can change this.',
    );
  }
  if (why === 'role_insufficient') {
    if (!facts.role) {
      throw new Refusal(
        'role_insufficient',
        "The person who created this connection no longer has access to this website, so the connection can't act on it.",
        'The site owner can restore their access or create a new connection.',
      );
    }
    if (rule.role === 'owner') {
      throw new Refusal(
        'owner_only',
        `${rule.name} can only be used through a connection created by the website's owner.`,
        'Ask the site owner to create a connection.',
      );
    }
    throw new Refusal(
      'role_insufficient',
      `${rule.name} needs the ${rule.role} role; the connection's creator is now a ${facts.role} on this website.`,
    );
  }
  if (why === 'advanced_editor_required') {
    throw new Refusal(
      'advanced_editor_required',
      `${rule.name} needs the advanced-editor grant, which this workspace does not have.`,
      'The advanced editor is invite-only; use update_section_text and the other draft tools instead.',
    );
  }
  return facts.role!;
}

function scopeMissing(rule: GateRule): Refusal {
  return new Refusal(
    'scope_missing',
    `${rule.name} needs the ${rule.scope} scope, which this connection does not have.`,
    'The site owner can create a connection with that scope under Settings › Advanced › Developers.',
  );
}

export type Authorized = { website: SiteRef; role: Role };

/**
 * The live facts the gate reads for (website, creator); cacheable by `GateFactsCache`. All of them are
 * auth facts (src/db/versions.ts): a content write leaves them, and their cache entry, as they were.
 */
export type GateRow = {
  website: SiteRef;
  role: string | null;
  withheldAreas: string[];
  advancedEditor: boolean;
} | null;
export type GateFactsCache = FeedCache<GateRow>;
/**
 * What may alter a gate decision, as the change feed names it (src/db/change-feed.ts):
 * `websites:auth` is a website created, deleted (or marked deleted, 0010) or moved to another workspace
 * (migration 0009), not
 * the content writes that update the row.
 */
export const GATE_TABLES = ['websites:auth', 'website_members', 'companies'] as const;

/**
 * Loads the live facts (one query, or the cache: on PGlite the change feed clears it at any committed
 * change to what GATE_TABLES names; on PostgreSQL it is kept under the workspace's auth version) and
 * decides. Every tool call passes here and only here.
 * Given the call's `input`, the rule's declared conditions on it are applied too (createsSite).
 */
export async function authorize(
  db: Db,
  caller: Caller,
  rule: GateRule,
  requested: string | undefined,
  cache?: Pick<GateFactsCache, 'get'>,
  input?: Readonly<Record<string, unknown>>,
): Promise<Authorized> {
  const id = targetWebsiteId(caller, rule, requested);
  const load = () => loadGateRow(db, id, caller.creatorId);
  // Keyed by the auth part alone: a revocation, role change, withheld area or deleted website raises
  // it, a content write does not (so a write does not read the facts again that its last write kept).
  const version = caller.cacheVersion === undefined ? undefined : authPart(caller.cacheVersion);
  const row = cache ? await cache.get(`${id}\u0000${caller.creatorId}`, load, version) : await load();
  const role = row?.role && isRole(row.role) ? row.role : null;
  const decided = decide(caller, rule, {
    website: row ? { id: row.website.id, companyId: row.website.companyId } : null,
    role,
    withheldAreas: row?.withheldAreas ?? [],
    advancedEditor: row?.advancedEditor ?? false,
  });
  if (input) await admitInput(db, caller, rule, input);
  return { website: row!.website, role: decided };
}

/**
 * The rule's conditions on the call's input, for a caller `authorize` already allowed: the plan's site
 * limit on the live count, the same function (and refusal) as the commit's re-check. `authorize`
 * applies them when given the input; a call with an idempotency key applies them after its key is
 * claimed, so the repeat of a call that filled the plan still gets the first call's answer.
 */
export async function admitInput(
  db: Db,
  caller: Caller,
  rule: GateRule,
  input: Readonly<Record<string, unknown>>,
): Promise<void> {
  if (createsSite(rule, input)) await siteRoom(db, caller.companyId, false);
}

/**
 * The live facts for (websites matching `where`, creator): each website with its company's withheld
 * areas and advanced-editor grant and the creator's role there. The gate reads one website; tools/list
 * reads every website a connection reaches (listing.ts) — one query shape for both.
 */
export function gateFacts(db: Db, creatorId: string | Placeholder, where: SQL | undefined) {
  return (
    db
      .select({
        website: { id: websites.id, companyId: websites.companyId },
        role: websiteMembers.role,
        withheldAreas: companies.withheldAreas,
        advancedEditor: companies.advancedEditor,
      })
      .from(websites)
      .innerJoin(companies, eq(companies.id, websites.companyId))
      .leftJoin(
        websiteMembers,
        and(eq(websiteMembers.websiteId, websites.id), eq(websiteMembers.userId, creatorId)),
      )
      // A site the owner deleted is gone for every tool: the same not_found as a missing one.
      .where(and(where, isNull(websites.deletedAt)))
  );
}

// A fixed statement: built once, and planned once per connection (src/db/named.ts).
const gateRow = fixedSelect('sitegate_gate_row', (db) =>
  gateFacts(db, sql.placeholder('creatorId'), eq(websites.id, sql.placeholder('id'))).limit(1),
);

async function loadGateRow(db: Db, id: string, creatorId: string): Promise<GateRow> {
  const rows = await gateRow(db, { id, creatorId });
  return rows[0] ?? null;
}
