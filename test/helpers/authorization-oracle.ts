// The authorization rules as an independent model, for the gate's tests (test/gate/decide.test.ts,
// test/attack/authorization-matrix.test.ts). It states the product's rules as a set of conditions, not
// the gate's order of checks: a call is allowed exactly when no rule is broken, and a refusal must name
// one of the rules that is broken. Written from the rules in docs/authorization.md, never from
// src/gate/, so a change to the gate that breaks a rule fails the tests instead of updating the model.
import type { GateRule } from '../../src/gate/authorize.js';
import type { Role, Scope } from '../../src/kernel/scopes.js';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

/** Which website a call names: none, the connection's own, another of its workspace, another tenant's, none at all. */
export type Target = 'omitted' | 'own' | 'sibling' | 'foreign' | 'missing';

export type AuthCase = {
  rule: GateRule;
  scopes: readonly Scope[];
  /** The connection creator's live role on the target website, null when they have none. */
  role: Role | null;
  withheld: readonly string[];
  grant: boolean;
  reach: 'website' | 'workspace';
  target: Target;
};

/** Every refusal code a broken rule may answer with; empty when the call is allowed. */
export function brokenRules(c: AuthCase): Set<string> {
  const out = new Set<string>();
  // Scopes are a ceiling: the connection must hold the tool's scope.
  if (!c.scopes.includes(c.rule.scope)) out.add('scope_missing');
  // Which website: workspace-level tools act on the connection's own site whatever is named.
  const target: Target = c.rule.workspaceLevel ? 'own' : c.target;
  if (!c.rule.workspaceLevel) {
    // A workspace connection names websiteId on each call.
    if (c.reach === 'workspace' && target === 'omitted') out.add('invalid_input');
    // A single-site connection naming another site learns nothing: not_found.
    if (c.reach === 'website' && target !== 'omitted' && target !== 'own') out.add('not_found');
  }
  // Another tenant's site or no site: the same not_found.
  if (target === 'foreign' || target === 'missing') out.add('not_found');
  const onSite = target === 'own' || target === 'sibling' || target === 'omitted';
  if (onSite) {
    // The agency switched the area off.
    if (c.withheld.includes(c.rule.area)) out.add('area_disabled');
    // The creator's live role; owner-only tools say so.
    if (c.role === null) out.add('role_insufficient');
    else if (RANK[c.role] < RANK[c.rule.role])
      out.add(c.rule.role === 'owner' ? 'owner_only' : 'role_insufficient');
    // Advanced draft writes need the workspace's grant.
    if (c.rule.advanced && !c.grant) out.add('advanced_editor_required');
  }
  return out;
}
