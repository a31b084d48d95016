// Attack suite, a generated authorization matrix: fast-check over tool × scopes × role × withheld
// areas × advanced-editor grant × reach × target, through the gate's two steps (target choice, then the
// decision). The oracle is the rules as a set of conditions (test/helpers/authorization-oracle.ts), not
// the gate's order of checks: a call is allowed exactly when no rule is broken, and a refusal must name
// one of the rules that is broken.
// Tenant isolation is checked on its own: another tenant's site never reveals anything but not_found
// (or the scope the connection lacks, which concerns the connection, not the site).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GateRule, decide, targetWebsiteId } from '../../src/gate/authorize.js';
import type { Caller } from '../../src/kernel/caller.js';
import { Refusal } from '../../src/kernel/errors.js';
import { ROLES, type Role, SCOPES, type Scope } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type AuthCase, type Target, brokenRules } from '../helpers/authorization-oracle.js';

const RULES: GateRule[] = createRegistry()
  .all()
  .map((t) => t.def);
const AREAS = [...new Set(RULES.map((r) => r.area))];
type Case = AuthCase & { scopes: Scope[]; withheld: string[] };

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
        const why = brokenRules(c);
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
