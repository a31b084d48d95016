// The gate's second kind of caller: a person signed in to the app (the owner's console). Connections
// go through authorize.ts; a person's action on a website goes through `authorizePerson`, which reads
// the live facts (the website, the person's role on it, the areas the agency withheld) in one query and
// applies `decidePerson` (pure, table-tested in test/gate/person.test.ts). Refusals are the gate's own,
// worded here once, each rule with its own words where it has them: a website the person is not a
// member of is the same not_found as a missing one (or, for an action on a thing of the site, the
// thing's not_found); a member below the action's role gets owner_only or role_insufficient; a
// withheld area is area_disabled. `memberRole` asks the plain question (is this person a member of
// this live website?) and answers with a role or null, never a refusal.
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
  /**
   * The thing of the site the action is on, when it is not the website itself: a person who may not
   * reach it is told no such thing exists (its not_found), never anything about the site.
   */
  about?: 'plan' | 'connection';
  /** The rule's own words for a member below its role. */
  below?: string;
  /** A member below the role learns no more than a stranger: the same not_found. */
  hiddenFromMembers?: true;
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
  /** Editing the draft by hand: sections, their order and visibility, new pages, search texts. */
  'draft.edit': { role: 'owner', area: 'content' },
  /** Adding an image to the website's library from the owner's computer. */
  'library.upload': { role: 'owner', area: 'content' },
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
  /** Making a product public at its current revision, or taking it back (the owner approves by acting). */
  'products.read': { role: 'owner', area: 'commerce' },
  'products.publish': { role: 'owner', area: 'commerce' },
  'members.read': { role: 'owner', area: 'access' },
  'members.remove': { role: 'owner', area: 'access' },
  'invitations.revoke': { role: 'owner', area: 'access' },
  /** Inviting an address as editor or viewer, changing a member between them, resending an invitation. */
  'members.invite': { role: 'owner', area: 'access' },
  'members.change_level': { role: 'owner', area: 'access' },
  'invitations.resend': { role: 'owner', area: 'access' },
  /** The analytics page: the same figures as get_analytics_summary (area `site`, like that tool). */
  'analytics.read': { role: 'owner', area: 'site' },
  /** The draft preview: any member of the site. */
  'site.preview': { role: 'viewer' },
  'restore_points.use': { role: 'owner' },
  /** Seeing, approving and declining the site's reviewed plans. */
  'plans.review': {
    role: 'owner',
    about: 'plan',
    below: 'Only the owner of this website can approve or decline its plans.',
  },
  /** Connections are created by the site's owner only. */
  'connections.create': { role: 'owner', below: 'Only the website owner can create a connection.' },
  /** …and revoked by an owner of the connection's website; to anyone else it does not exist. */
  'connections.revoke': { role: 'owner', about: 'connection', hiddenFromMembers: true },
} as const satisfies Record<string, PersonRule>;

export type PersonAction = keyof typeof PERSON_RULES;

export type PersonFacts = {
  /** The website if it exists at all, with when it was deleted (null while it is live). */
  website: { id: string; companyId: string; deletedAt: Date | null } | null;
  /** The person's live role on it, null when not a member. */
  role: Role | null;
  withheldAreas: readonly string[];
};

/** Why the facts refuse the action, worded by the rule; null when they allow it. */
export function personRefusal(action: PersonAction, facts: PersonFacts): Refusal | null {
  const rule: PersonRule = PERSON_RULES[action];
  const hidden = notFound(rule.about ?? 'website');
  // Not a member, no such site, or a site in the state the action does not apply to: all alike.
  if (!facts.website || !facts.role) return hidden;
  const deleted = facts.website.deletedAt !== null;
  if (deleted !== (rule.on === 'deleted')) return hidden;
  if (roleRank(facts.role) < roleRank(rule.role)) {
    if (rule.hiddenFromMembers) return hidden;
    if (rule.role === 'owner') {
      return new Refusal('owner_only', rule.below ?? 'Only the owner of this website can do this.');
    }
    return new Refusal(
      'role_insufficient',
      rule.below ?? `This needs the ${rule.role} role on this website.`,
    );
  }
  if (rule.area && facts.withheldAreas.includes(rule.area)) {
    return new Refusal(
      'area_disabled',
      `The ${rule.area} area is switched off for this account by the agency that manages it.`,
    );
  }
  return null;
}

/** The decision on live facts: the person's role, or the rule's refusal thrown. */
export function decidePerson(action: PersonAction, facts: PersonFacts): Role {
  const refusal = personRefusal(action, facts);
  if (refusal) throw refusal;
  return facts.role!;
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

/** The live facts for (person, website) in one query, with the website as a page sees it. */
async function loadFacts(db: Db, person: Person, websiteId: string) {
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
  const facts: PersonFacts = {
    website: row?.website ?? null,
    role: row?.role && isRole(row.role) ? row.role : null,
    withheldAreas: row?.withheldAreas ?? [],
  };
  return { facts, website: row?.website };
}

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
  const { facts, website } = await loadFacts(db, person, websiteId);
  const role = decidePerson(action, facts);
  return { website: website!, role };
}

/**
 * The plain membership question: the person's live role on this live website, or null when they are
 * not a member, the site does not exist, or it was deleted. Nothing is refused; a caller that only
 * needs to know (is this visitor a member, may they fetch a draft asset) asks this.
 */
export async function memberRole(db: Db, person: Person, websiteId: string): Promise<Role | null> {
  const { facts } = await loadFacts(db, person, websiteId);
  return personRefusal('site.preview', facts) ? null : facts.role;
}
