// The gate's second kind of caller: a person signed in to the app (the owner's console). Connections
// go through authorize.ts; a person's action on a website goes through `authorizePerson`, which reads
// the live facts (the website, the person's role on it, the areas the agency withheld) in one query and
// applies `decidePerson` (pure, table-tested in test/gate/person.test.ts). Refusals are the gate's own:
// a website the person is not a member of is the same not_found as a missing one; a member below the
// action's role gets owner_only or role_insufficient; a withheld area is area_disabled.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { companies, websiteMembers, websites } from '../db/schema.js';
import { Refusal, notFound } from '../kernel/errors.js';
import { type Area, type Role, isRole, roleRank } from '../kernel/scopes.js';

/** A signed-in person: the session's user. */
export type Person = { userId: string };

type PersonRule = {
  role: Role;
  /** The agency area the action belongs to, when an agency may withhold it. */
  area?: Area;
  /** `deleted`: the action is on a deleted site (restore) and refused on a live one. */
  on?: 'live' | 'deleted';
};

/**
 * What a person may do on one website in the app. Every removal is human-only and the owner's: no
 * connection can do any of these (docs/authorization.md). A site the owner deleted is out of reach of
 * every action but its restore.
 */
export const PERSON_RULES = {
  /** The site console itself and its lists. */
  'site.console': { role: 'owner' },
  'page.delete': { role: 'owner', area: 'content' },
  'site.publish': { role: 'owner', area: 'publishing' },
  'site.delete': { role: 'owner' },
  /** Whether visitors' AI assistants may use the live site's /_api/mcp. */
  'site.visitor_agents': { role: 'owner' },
  'site.restore': { role: 'owner', on: 'deleted' },
  'customers.read': { role: 'owner', area: 'crm' },
  'customers.erase': { role: 'owner', area: 'crm' },
  /** The booking calendar and its changes that email the customer (confirm, decline, reschedule …). */
  'bookings.read': { role: 'owner', area: 'crm' },
  'bookings.change': { role: 'owner', area: 'crm' },
  /** Editing a lead's or contact's status, handled, note and follow-up date in the console. */
  'customers.update': { role: 'owner', area: 'crm' },
  /** Offering a service on the live site (and to visitors' assistants), or taking it back. */
  'services.read': { role: 'owner', area: 'commerce' },
  'services.publish': { role: 'owner', area: 'commerce' },
  'members.read': { role: 'owner', area: 'access' },
  'members.remove': { role: 'owner', area: 'access' },
  'invitations.revoke': { role: 'owner', area: 'access' },
  /** The draft preview: any member of the site. */
  'site.preview': { role: 'viewer' },
  'restore_points.use': { role: 'owner' },
  /** Seeing, approving and declining the site's reviewed plans. */
  'plans.review': { role: 'owner' },
  /** Creating and revoking connections (owner-created only). */
  'connections.manage': { role: 'owner' },
} as const satisfies Record<string, PersonRule>;

export type PersonAction = keyof typeof PERSON_RULES;

export type PersonFacts = {
  /** The website if it exists at all, with when it was deleted (null while it is live). */
  website: { id: string; companyId: string; deletedAt: Date | null } | null;
  /** The person's live role on it, null when not a member. */
  role: Role | null;
  withheldAreas: readonly string[];
};

/** The decision on live facts; returns the person's role. */
export function decidePerson(action: PersonAction, facts: PersonFacts): Role {
  const rule: PersonRule = PERSON_RULES[action];
  // Not a member, no such site, or a site in the state the action does not apply to: all alike.
  if (!facts.website || !facts.role) throw notFound('website');
  const deleted = facts.website.deletedAt !== null;
  if (deleted !== (rule.on === 'deleted')) throw notFound('website');
  if (roleRank(facts.role) < roleRank(rule.role)) {
    if (rule.role === 'owner') {
      throw new Refusal('owner_only', 'Only the owner of this website can do this.');
    }
    throw new Refusal('role_insufficient', `This needs the ${rule.role} role on this website.`);
  }
  if (rule.area && facts.withheldAreas.includes(rule.area)) {
    throw new Refusal(
      'area_disabled',
      `The ${rule.area} area is switched off for this account by the agency that manages it.`,
    );
  }
  return facts.role;
}

/** The website as an authorized page sees it. */
export type PersonSite = {
  id: string;
  companyId: string;
  name: string;
  config: Record<string, unknown>;
  deletedAt: Date | null;
};

export type PersonAuthorized = { website: PersonSite; role: Role };

/**
 * Loads the live facts for (person, website) and decides. Read on every request, never cached, so a
 * removal or a role change holds at the person's next request on every process.
 */
export async function authorizePerson(
  db: Db,
  person: Person,
  action: PersonAction,
  websiteId: string,
): Promise<PersonAuthorized> {
  const [row] = await db
    .select({
      website: {
        id: websites.id,
        companyId: websites.companyId,
        name: websites.name,
        config: websites.config,
        deletedAt: websites.deletedAt,
      },
      role: websiteMembers.role,
      withheldAreas: companies.withheldAreas,
    })
    .from(websites)
    .innerJoin(companies, eq(companies.id, websites.companyId))
    .leftJoin(
      websiteMembers,
      and(eq(websiteMembers.websiteId, websites.id), eq(websiteMembers.userId, person.userId)),
    )
    .where(eq(websites.id, websiteId))
    .limit(1);
  const role = decidePerson(action, {
    website: row?.website ?? null,
    role: row?.role && isRole(row.role) ? row.role : null,
    withheldAreas: row?.withheldAreas ?? [],
  });
  return { website: row!.website, role };
}
