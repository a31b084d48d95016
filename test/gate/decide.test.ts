// Table-driven: every scope × role × withheld area × grant combination for the rules of the tools
// that exist, plus reach and tenancy. The expected outcome is computed independently below.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/kernel/caller.js';
import { Refusal } from '../../src/kernel/errors.js';
import { type GateFacts, type GateRule, decide, targetWebsiteId } from '../../src/gate/authorize.js';
import { ROLES, type Role, SCOPES, roleRank } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';

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

/** The rule, stated independently of the implementation's order of checks. */
function expected(
  rule: GateRule,
  hasScope: boolean,
  role: Role | null,
  withheld: boolean,
  grant: boolean,
): string {
  if (!hasScope) return 'scope_missing';
  if (withheld) return 'area_disabled';
  if (role === null) return 'role_insufficient';
  if (roleRank(role) < roleRank(rule.role)) return rule.role === 'owner' ? 'owner_only' : 'role_insufficient';
  if (rule.advanced && !grant) return 'advanced_editor_required';
  return 'allowed';
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
  it(`covers ${cases.length} combinations`, () => {
    expect(cases.length).toBe(rules.length * 2 * 4 * 2 * 2);
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
    expect(got).toBe(expected(rule, hasScope, role, withheld, grant));
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
