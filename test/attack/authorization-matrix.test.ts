// Attack suite, a generated authorization matrix: fast-check over tool × scopes × role × withheld
// areas × advanced-editor grant × reach × target, through the gate's two steps (target choice, then the
// decision). The oracle is SPEC.md's rules as a set of conditions, not the gate's order of checks: a call
// is allowed exactly when no rule is broken, and a refusal must name one of the rules that is broken.
// Tenant isolation is checked on its own: another tenant's site never reveals anything but not_found
// (or the scope the connection lacks, which concerns the connection, not the site).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GateRule, decide, targetWebsiteId } from '../../src/gate/authorize.js';
import type { Caller } from '../../src/kernel/caller.js';
import { Refusal } from '../../src/kernel/errors.js';
import { ROLES, type Role, SCOPES, type Scope } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';

const RULES: GateRule[] = createRegistry()
  .all()
  .map((t) => t.def);
const AREAS = [...new Set(RULES.map((r) => r.area))];
const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

type Target = 'omitted' | 'own' | 'sibling' | 'foreign' | 'missing';
type Case = {
  rule: GateRule;
  scopes: Scope[];
  role: Role | null;
  withheld: string[];
  grant: boolean;
  reach: 'website' | 'workspace';
  target: Target;
};

const SITE = { own: 'site_own', sibling: 'site_sibling', foreign: 'site_foreign', missing: 'site_missing' };

/** Runs the gate's two steps for one case: the refusal code, or 'allowed'. */
function gate(c: Case): string {
  const caller: Caller = {
    connectionId: 'conn_1',
    companyId: 'co_1',
    creatorId: 'usr_1',
    reach: c.reach,
    websiteId: SITE.own,
    scopes: c.scopes,
    clientKind: 'api_token',
    via: 'token',
  };
  try {
    const id = targetWebsiteId(caller, c.rule, c.target === 'omitted' ? undefined : SITE[c.target]);
    const website = id === SITE.missing ? null : { id, companyId: id === SITE.foreign ? 'co_other' : 'co_1' };
    decide(caller, c.rule, { website, role: c.role, withheldAreas: c.withheld, advancedEditor: c.grant });
    return 'allowed';
  } catch (e) {
    if (e instanceof Refusal) return e.code;
    throw e;
  }
}

/** SPEC §1, §4.4, §4.5 rules 2/7, §5 rules 4-7, DESIGN §4: every code a broken rule may answer with. */
function broken(c: Case): Set<string> {
  const out = new Set<string>();
  // Scopes are a ceiling (SPEC §5 rule 4).
  if (!c.scopes.includes(c.rule.scope)) out.add('scope_missing');
  // Which website: workspace-level tools act on the connection's own site whatever is named.
  const target: Target = c.rule.workspaceLevel ? 'own' : c.target;
  if (!c.rule.workspaceLevel) {
    // A workspace connection names websiteId on each call (SPEC §4.4).
    if (c.reach === 'workspace' && target === 'omitted') out.add('invalid_input');
    // A single-site connection naming another site: not_found (DESIGN §4).
    if (c.reach === 'website' && target !== 'omitted' && target !== 'own') out.add('not_found');
  }
  // Another tenant's site or no site: the same not_found (SPEC §4.5 rule 2).
  if (target === 'foreign' || target === 'missing') out.add('not_found');
  const onSite = target === 'own' || target === 'sibling' || target === 'omitted';
  if (onSite) {
    // The agency switched the area off (SPEC §1, §5 rule 7).
    if (c.withheld.includes(c.rule.area)) out.add('area_disabled');
    // The creator's live role (SPEC §5 rule 5); owner-only tools say so (rule 7 of §4.5).
    if (c.role === null) out.add('role_insufficient');
    else if (RANK[c.role] < RANK[c.rule.role])
      out.add(c.rule.role === 'owner' ? 'owner_only' : 'role_insufficient');
    // Advanced draft writes need the grant (SPEC §5 rule 6).
    if (c.rule.advanced && !c.grant) out.add('advanced_editor_required');
  }
  return out;
}

const arbCase: fc.Arbitrary<Case> = fc.record({
  rule: fc.constantFrom(...RULES),
  scopes: fc.subarray([...SCOPES]),
  role: fc.constantFrom<Role | null>(...ROLES, null),
  withheld: fc.subarray(AREAS),
  grant: fc.boolean(),
  reach: fc.constantFrom('website' as const, 'workspace' as const),
  target: fc.constantFrom<Target>('omitted', 'own', 'sibling', 'foreign', 'missing'),
});

describe('generated authorization matrix', () => {
  it('allowed exactly when no rule is broken; a refusal names a broken rule', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const got = gate(c);
        const why = broken(c);
        if (why.size === 0) expect(got).toBe('allowed');
        else expect([...why]).toContain(got);
      }),
      { numRuns: 300 },
    );
  });

  it('another tenant’s site reveals nothing about itself', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const foreign = { ...c, target: 'foreign' as const };
        if (foreign.rule.workspaceLevel) return;
        expect(['scope_missing', 'not_found']).toContain(gate(foreign));
        // Whatever the creator's role and the areas there, the answer is the same as for no site.
        expect(gate(foreign)).toBe(gate({ ...foreign, target: 'missing' }));
      }),
      { numRuns: 200 },
    );
  });

  it('every tool is reachable: with every scope, the owner role and the grant, on its own site', () => {
    for (const rule of RULES) {
      const c: Case = {
        rule,
        scopes: [...SCOPES],
        role: 'owner',
        withheld: [],
        grant: true,
        reach: 'website',
        target: 'own',
      };
      expect({ tool: rule.name, got: gate(c) }).toEqual({ tool: rule.name, got: 'allowed' });
    }
  });
});
