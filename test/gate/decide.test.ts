// Table-driven: every scope × role × withheld area × grant combination for the rules of the tools
// that exist, plus reach and tenancy. The expected outcome comes from the authorization matrix's
// independent model of the rules (test/helpers/authorization-oracle.ts), not from the gate's order of
// checks: allowed exactly when no rule is broken, else one of the broken rules' codes. Which of several
// broken rules is reported first is the gate's choice; the rules that fix an order are tested by name.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/kernel/caller.js';
import { Refusal } from '../../src/kernel/errors.js';
import { type GateFacts, type GateRule, decide, targetWebsiteId } from '../../src/gate/authorize.js';
import { ROLES, type Role, SCOPES } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { brokenRules } from '../helpers/authorization-oracle.js';

const caller = (scopes: readonly string[], over: Partial<Caller> = {}): Caller => ({
  connectionId: 'conn_1',
  companyId: 'co_1',
  creatorId: 'usr_1',
  reach: 'website',
  websiteId: 'site_1',
  scopes: scopes as Caller['scopes'],
  clientKind: 'api_token',
  via: 'token',
  ...over,
});

const facts = (over: Partial<GateFacts> = {}): GateFacts => ({
  website: { id: 'site_1', companyId: 'co_1' },
  role: 'owner',
  withheldAreas: [],
  advancedEditor: true,
  ...over,
});

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'allowed';
  } catch (e) {
    if (e instanceof Refusal) return e.code;
    throw e;
  }
}

const registryRules: GateRule[] = createRegistry()
  .all()
  .map((t) => t.def);
// The rule shapes later areas declare, so the matrix covers them before their tools exist.
const shapeRules: GateRule[] = [
  { name: 'editor_tool', scope: 'content:write', area: 'content', role: 'editor' },
  { name: 'advanced_tool', scope: 'content:write', area: 'content', role: 'editor', advanced: true },
  { name: 'owner_tool', scope: 'domain:write', area: 'domains', role: 'owner' },
  { name: 'invoicing_tool', scope: 'communications:write', area: 'invoicing', role: 'owner' },
];

describe('gate decision matrix', () => {
  const rules = [...registryRules, ...shapeRules];
  const cases: Array<[string, GateRule, boolean, Role | null, boolean, boolean]> = [];
  for (const rule of rules) {
    for (const hasScope of [true, false]) {
      for (const role of [...ROLES, null] as Array<Role | null>) {
        for (const withheld of [false, true]) {
          for (const grant of [true, false]) {
            cases.push([
              `${rule.name} scope=${hasScope} role=${role} withheld=${withheld} grant=${grant}`,
              rule,
              hasScope,
              role,
              withheld,
              grant,
            ]);
          }
        }
      }
    }
  }
  it('reaches every answer of the gate: allowed and each refusal a website of its own tenant can get', () => {
    const seen = new Set(
      cases.map(([, rule, hasScope, role, withheld, grant]) =>
        outcome(() =>
          decide(
            caller(hasScope ? SCOPES : SCOPES.filter((s) => s !== rule.scope)),
            rule,
            facts({ role, withheldAreas: withheld ? [rule.area] : ['unrelated'], advancedEditor: grant }),
          ),
        ),
      ),
    );
    expect([...seen].sort()).toEqual(
      [
        'allowed',
        'scope_missing',
        'area_disabled',
        'role_insufficient',
        'owner_only',
        'advanced_editor_required',
      ].sort(),
    );
  });
  it.each(cases)('%s', (_name, rule, hasScope, role, withheld, grant) => {
    const scopes = hasScope ? SCOPES : SCOPES.filter((s) => s !== rule.scope);
    const got = outcome(() =>
      decide(
        caller(scopes),
        rule,
        facts({ role, withheldAreas: withheld ? [rule.area] : ['unrelated'], advancedEditor: grant }),
      ),
    );
    const why = brokenRules({
      rule,
      scopes,
      role,
      withheld: withheld ? [rule.area] : ['unrelated'],
      grant,
      reach: 'website',
      target: 'own',
    });
    if (why.size === 0) expect(got).toBe('allowed');
    else expect([...why]).toContain(got);
  });
  // Every refusal code of the decision is reached by some combination, each alone where it is the only
  // rule broken (so the loose check above cannot hide a code the gate never answers with).
  it.each([
    ['scope_missing', { hasScope: false }],
    ['area_disabled', { withheld: true }],
    ['role_insufficient', { role: null }],
    ['role_insufficient', { role: 'viewer', rule: shapeRules[0]! }],
    ['owner_only', { role: 'editor', rule: shapeRules[2]! }],
    ['advanced_editor_required', { grant: false, rule: shapeRules[1]! }],
  ] as const)('only %s broken: the gate answers with it', (code, o) => {
    const rule: GateRule = 'rule' in o ? o.rule : shapeRules[0]!;
    const hasScope = !('hasScope' in o);
    const c = {
      rule,
      scopes: hasScope ? SCOPES : SCOPES.filter((s) => s !== rule.scope),
      role: ('role' in o ? o.role : 'owner') as Role | null,
      withheld: 'withheld' in o ? [rule.area] : [],
      grant: !('grant' in o),
      reach: 'website' as const,
      target: 'own' as const,
    };
    expect([...brokenRules(c)]).toEqual([code]);
    const got = outcome(() =>
      decide(
        caller(c.scopes),
        rule,
        facts({ role: c.role, withheldAreas: c.withheld, advancedEditor: c.grant }),
      ),
    );
    expect(got).toBe(code);
  });
});

describe('gate: reach and tenancy', () => {
  const rule: GateRule = { name: 'get_page', scope: 'site:read', area: 'site', role: 'viewer' };

  it('another tenant’s website is the same not_found as a missing one', () => {
    const foreign = outcome(() =>
      decide(caller(SCOPES), rule, facts({ website: { id: 'site_x', companyId: 'co_other' } })),
    );
    const missing = outcome(() => decide(caller(SCOPES), rule, facts({ website: null })));
    expect(foreign).toBe('not_found');
    expect(missing).toBe('not_found');
  });

  it('a single-site connection naming another site gets not_found before anything is loaded', () => {
    expect(outcome(() => targetWebsiteId(caller(SCOPES), rule, 'site_2'))).toBe('not_found');
    expect(targetWebsiteId(caller(SCOPES), rule, 'site_1')).toBe('site_1');
    expect(targetWebsiteId(caller(SCOPES), rule, undefined)).toBe('site_1');
  });

  it('a workspace connection must name websiteId', () => {
    const ws = caller(SCOPES, { reach: 'workspace' });
    expect(outcome(() => targetWebsiteId(ws, rule, undefined))).toBe('invalid_input');
    expect(targetWebsiteId(ws, rule, 'site_2')).toBe('site_2');
  });

  it('workspace-level tools are anchored to the connection’s own website and ignore any id', () => {
    const wsRule: GateRule = { ...rule, name: 'list_sites', workspaceLevel: true };
    expect(targetWebsiteId(caller(SCOPES, { reach: 'workspace' }), wsRule, 'site_9')).toBe('site_1');
  });

  it('scope is checked before anything else', () => {
    expect(outcome(() => targetWebsiteId(caller([]), { ...rule, scope: 'crm:read' }, 'site_2'))).toBe(
      'scope_missing',
    );
  });
});
