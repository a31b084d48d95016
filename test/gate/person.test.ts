// Table-driven: the person rule set of the gate (src/gate/person.ts) for every action × role × site
// state × withheld area, against the rule stated independently below. A site the person is not a
// member of, a missing one, and a site in the wrong state (deleted, or live for a restore) are the
// same not_found.
import { describe, expect, it } from 'vitest';
import { PERSON_RULES, type PersonAction, type PersonFacts, decidePerson } from '../../src/gate/person.js';
import { Refusal } from '../../src/kernel/errors.js';
import { ROLES, type Role, roleRank } from '../../src/kernel/scopes.js';

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'allowed';
  } catch (e) {
    if (e instanceof Refusal) return e.code;
    throw e;
  }
}

const ACTIONS = Object.keys(PERSON_RULES) as PersonAction[];

function expected(action: PersonAction, role: Role | null, deleted: boolean, withheld: boolean): string {
  const rule = PERSON_RULES[action] as { role: Role; area?: string; on?: string };
  if (role === null) return 'not_found';
  if (deleted !== (rule.on === 'deleted')) return 'not_found';
  if (roleRank(role) < roleRank(rule.role)) return rule.role === 'owner' ? 'owner_only' : 'role_insufficient';
  if (withheld && rule.area) return 'area_disabled';
  return 'allowed';
}

describe('person gate matrix', () => {
  const cases: Array<[string, PersonAction, Role | null, boolean, boolean]> = [];
  for (const action of ACTIONS)
    for (const role of [...ROLES, null] as Array<Role | null>)
      for (const deleted of [false, true])
        for (const withheld of [false, true])
          cases.push([
            `${action} role=${role} deleted=${deleted} withheld=${withheld}`,
            action,
            role,
            deleted,
            withheld,
          ]);

  it(`covers ${cases.length} combinations`, () => {
    expect(cases.length).toBe(ACTIONS.length * 4 * 2 * 2);
  });
  it.each(cases)('%s', (_name, action, role, deleted, withheld) => {
    const rule = PERSON_RULES[action] as { area?: string };
    const facts: PersonFacts = {
      website: { id: 'site_1', companyId: 'co_1', deletedAt: deleted ? new Date(0) : null },
      role,
      withheldAreas: withheld && rule.area ? [rule.area] : ['unrelated'],
    };
    expect(outcome(() => decidePerson(action, facts))).toBe(expected(action, role, deleted, withheld));
  });

  it('every console action (every removal) is the owner’s; only the draft preview is any member’s', () => {
    const byRole = Object.entries(PERSON_RULES)
      .filter(([, r]) => r.role !== 'owner')
      .map(([a]) => a);
    expect(byRole).toEqual(['site.preview']);
  });

  it('a missing website is not_found for every action', () => {
    for (const action of ACTIONS) {
      expect(outcome(() => decidePerson(action, { website: null, role: null, withheldAreas: [] }))).toBe(
        'not_found',
      );
    }
  });
});
