// The person gate (src/gate/person.ts) as a table: for every action, what an owner, an editor, a viewer
// and a stranger (no role on the site: another workspace's owner, or nobody) get, on a live site, on a
// deleted one, and on a live one whose agency withheld every area. The tables are written out by hand
// from what the console promises (docs/authorization.md): every removal and every console action is the
// owner's, the draft preview is any member's, a deleted site is reachable only by its restore, and a
// stranger learns nothing. They are not computed from the rules, so a changed rule fails here.
// Then the words: the rules that carry their own refusal say it, and the plain membership question
// answers without refusing, against a real database.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { websiteMembers, websites } from '../../src/db/schema.js';
import {
  PERSON_RULES,
  type PersonAction,
  type PersonFacts,
  authorizePerson,
  decidePerson,
  memberRole,
  personRefusal,
} from '../../src/gate/person.js';
import { Refusal } from '../../src/kernel/errors.js';
import { AREAS, type Role } from '../../src/kernel/scopes.js';
import { testDatabase } from '../helpers/db.js';
import { type Workspace, makeWorkspace } from '../helpers/factory.js';

type Who = Role | 'stranger';
const WHO: readonly Who[] = ['owner', 'editor', 'viewer', 'stranger'];

/** A whitespace table: a header row `action owner editor viewer stranger`, then one row per action. */
function table(text: string): Map<string, Record<Who, string>> {
  const rows = text
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/));
  const [head, ...body] = rows;
  expect(head).toEqual(['action', ...WHO]);
  return new Map(
    body.map(([action, ...cells]) => {
      expect(cells).toHaveLength(WHO.length);
      return [action!, Object.fromEntries(WHO.map((w, i) => [w, cells[i]!])) as Record<Who, string>];
    }),
  );
}

// A live site, nothing withheld.
const LIVE = table(`
  action                owner        editor       viewer       stranger
  site.console          allowed      owner_only   owner_only   not_found
  page.delete           allowed      owner_only   owner_only   not_found
  draft.edit            allowed      owner_only   owner_only   not_found
  library.upload        allowed      owner_only   owner_only   not_found
  site.publish          allowed      owner_only   owner_only   not_found
  site.delete           allowed      owner_only   owner_only   not_found
  site.visitor_agents   allowed      owner_only   owner_only   not_found
  site.restore          not_found    not_found    not_found    not_found
  customers.read        allowed      owner_only   owner_only   not_found
  customers.erase       allowed      owner_only   owner_only   not_found
  customers.update      allowed      owner_only   owner_only   not_found
  bookings.read         allowed      owner_only   owner_only   not_found
  bookings.change       allowed      owner_only   owner_only   not_found
  services.read         allowed      owner_only   owner_only   not_found
  services.publish      allowed      owner_only   owner_only   not_found
  products.read         allowed      owner_only   owner_only   not_found
  products.publish      allowed      owner_only   owner_only   not_found
  members.read          allowed      owner_only   owner_only   not_found
  members.remove        allowed      owner_only   owner_only   not_found
  invitations.revoke    allowed      owner_only   owner_only   not_found
  members.invite        allowed      owner_only   owner_only   not_found
  members.change_level  allowed      owner_only   owner_only   not_found
  invitations.resend    allowed      owner_only   owner_only   not_found
  analytics.read        allowed      owner_only   owner_only   not_found
  site.preview          allowed      allowed      allowed      not_found
  restore_points.use    allowed      owner_only   owner_only   not_found
  plans.review          allowed      owner_only   owner_only   not_found
  connections.create    allowed      owner_only   owner_only   not_found
  connections.revoke    allowed      not_found    not_found    not_found
`);

// The same site after its owner deleted it: only its restore, and only by an owner.
const DELETED = table(`
  action                owner        editor       viewer       stranger
  site.console          not_found    not_found    not_found    not_found
  page.delete           not_found    not_found    not_found    not_found
  draft.edit            not_found    not_found    not_found    not_found
  library.upload        not_found    not_found    not_found    not_found
  site.publish          not_found    not_found    not_found    not_found
  site.delete           not_found    not_found    not_found    not_found
  site.visitor_agents   not_found    not_found    not_found    not_found
  site.restore          allowed      owner_only   owner_only   not_found
  customers.read        not_found    not_found    not_found    not_found
  customers.erase       not_found    not_found    not_found    not_found
  customers.update      not_found    not_found    not_found    not_found
  bookings.read         not_found    not_found    not_found    not_found
  bookings.change       not_found    not_found    not_found    not_found
  services.read         not_found    not_found    not_found    not_found
  services.publish      not_found    not_found    not_found    not_found
  products.read         not_found    not_found    not_found    not_found
  products.publish      not_found    not_found    not_found    not_found
  members.read          not_found    not_found    not_found    not_found
  members.remove        not_found    not_found    not_found    not_found
  invitations.revoke    not_found    not_found    not_found    not_found
  members.invite        not_found    not_found    not_found    not_found
  members.change_level  not_found    not_found    not_found    not_found
  invitations.resend    not_found    not_found    not_found    not_found
  analytics.read        not_found    not_found    not_found    not_found
  site.preview          not_found    not_found    not_found    not_found
  restore_points.use    not_found    not_found    not_found    not_found
  plans.review          not_found    not_found    not_found    not_found
  connections.create    not_found    not_found    not_found    not_found
  connections.revoke    not_found    not_found    not_found    not_found
`);

// A live site whose agency withheld every area: content (page.delete), publishing, crm (customers,
// bookings), commerce (services, products) and access.
// A member below the owner is told the role, not the area (the area is the owner's to ask about).
const WITHHELD = table(`
  action                owner          editor       viewer       stranger
  site.console          allowed        owner_only   owner_only   not_found
  page.delete           area_disabled  owner_only   owner_only   not_found
  draft.edit            area_disabled  owner_only   owner_only   not_found
  library.upload        area_disabled  owner_only   owner_only   not_found
  site.publish          area_disabled  owner_only   owner_only   not_found
  site.delete           allowed        owner_only   owner_only   not_found
  site.visitor_agents   allowed        owner_only   owner_only   not_found
  site.restore          not_found      not_found    not_found    not_found
  customers.read        area_disabled  owner_only   owner_only   not_found
  customers.erase       area_disabled  owner_only   owner_only   not_found
  customers.update      area_disabled  owner_only   owner_only   not_found
  bookings.read         area_disabled  owner_only   owner_only   not_found
  bookings.change       area_disabled  owner_only   owner_only   not_found
  services.read         area_disabled  owner_only   owner_only   not_found
  services.publish      area_disabled  owner_only   owner_only   not_found
  products.read         area_disabled  owner_only   owner_only   not_found
  products.publish      area_disabled  owner_only   owner_only   not_found
  members.read          area_disabled  owner_only   owner_only   not_found
  members.remove        area_disabled  owner_only   owner_only   not_found
  invitations.revoke    area_disabled  owner_only   owner_only   not_found
  members.invite        area_disabled  owner_only   owner_only   not_found
  members.change_level  area_disabled  owner_only   owner_only   not_found
  invitations.resend    area_disabled  owner_only   owner_only   not_found
  analytics.read        area_disabled  owner_only   owner_only   not_found
  site.preview          allowed        allowed      allowed      not_found
  restore_points.use    allowed        owner_only   owner_only   not_found
  plans.review          allowed        owner_only   owner_only   not_found
  connections.create    allowed        owner_only   owner_only   not_found
  connections.revoke    allowed        not_found    not_found    not_found
`);

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'allowed';
  } catch (e) {
    if (e instanceof Refusal) return e.code;
    throw e;
  }
}

const facts = (who: Who, o: { deleted?: boolean; withheld?: readonly string[] } = {}): PersonFacts => ({
  website: { id: 'site_1', companyId: 'co_1', deletedAt: o.deleted ? new Date(0) : null },
  role: who === 'stranger' ? null : who,
  withheldAreas: o.withheld ?? [],
});

describe('person gate tables', () => {
  it('each table has a row for every action the gate knows, and no other', () => {
    const actions = Object.keys(PERSON_RULES).sort();
    for (const t of [LIVE, DELETED, WITHHELD]) expect([...t.keys()].sort()).toEqual(actions);
  });

  const cases = (name: string, t: Map<string, Record<Who, string>>, o: Parameters<typeof facts>[1]) =>
    [...t].flatMap(([action, row]) =>
      WHO.map((who) => [`${name}: ${action} by ${who}`, action as PersonAction, who, o, row[who]] as const),
    );

  it.each([
    ...cases('live', LIVE, {}),
    ...cases('deleted', DELETED, { deleted: true }),
    ...cases('withheld', WITHHELD, { withheld: AREAS }),
  ])('%s', (_name, action, who, o, expected) => {
    expect(outcome(() => decidePerson(action, facts(who, o)))).toBe(expected);
  });

  it('a website that does not exist is not_found for every action and every person', () => {
    const none: PersonFacts = { website: null, role: null, withheldAreas: [] };
    const got = Object.keys(PERSON_RULES).map((a) => outcome(() => decidePerson(a as PersonAction, none)));
    expect(new Set(got)).toEqual(new Set(['not_found']));
  });

  it('an allowed action answers with the person’s own role', () => {
    expect(decidePerson('site.preview', facts('viewer'))).toBe('viewer');
    expect(decidePerson('site.delete', facts('owner'))).toBe('owner');
  });
});

describe('the refusal is worded by the rule that makes it', () => {
  const words = (action: PersonAction, who: Who) => {
    const r = personRefusal(action, facts(who));
    return r && { code: r.code, message: r.message, hint: r.hint };
  };

  it('reviewing plans: a member is told only the owner decides, a stranger that there is no such plan', () => {
    expect(words('plans.review', 'editor')).toEqual({
      code: 'owner_only',
      message: 'Only the owner of this website can approve or decline its plans.',
      hint: undefined,
    });
    expect(words('plans.review', 'stranger')).toMatchObject({
      code: 'not_found',
      message: 'No plan with that id is available to this connection.',
      hint: expect.stringContaining('Plans live 5 minutes'),
    });
  });

  it('creating a connection: a member is told only the owner can; a stranger hears of no website', () => {
    expect(words('connections.create', 'viewer')).toMatchObject({
      code: 'owner_only',
      message: 'Only the website owner can create a connection.',
    });
    expect(words('connections.create', 'stranger')).toMatchObject({
      code: 'not_found',
      message: 'No website with that id is available to this connection.',
    });
  });

  it('revoking a connection: to a member below the owner, as to a stranger, the connection does not exist', () => {
    for (const who of ['editor', 'viewer', 'stranger'] as const) {
      expect(words('connections.revoke', who)).toMatchObject({
        code: 'not_found',
        message: 'No connection with that id is available to this connection.',
      });
    }
  });

  it('a rule without words of its own gets the gate’s: owner only, an area switched off', () => {
    expect(words('site.delete', 'editor')).toMatchObject({
      code: 'owner_only',
      message: 'Only the owner of this website can do this.',
    });
    expect(personRefusal('customers.read', facts('owner', { withheld: ['crm'] }))).toMatchObject({
      code: 'area_disabled',
      message: 'The crm area is switched off for this account by the agency that manages it.',
    });
  });
});

describe('on live facts (the database)', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>['db'];
  let w: Workspace;
  let other: Workspace;
  beforeAll(async () => {
    db = (await testDatabase()).db;
    w = await makeWorkspace(db);
    other = await makeWorkspace(db);
  });

  it('memberRole answers the membership question with a role or null, and refuses nothing', async () => {
    const site = w.websites.main;
    expect(await memberRole(db, { userId: w.users.owner.id }, site)).toBe('owner');
    expect(await memberRole(db, { userId: w.users.viewer.id }, site)).toBe('viewer');
    expect(await memberRole(db, { userId: other.users.owner.id }, site)).toBeNull();
    expect(await memberRole(db, { userId: w.users.owner.id }, 'site_none')).toBeNull();
  });

  it('a member removed, or a site deleted, is no longer a member at the next question', async () => {
    const site = w.websites.main;
    await db
      .delete(websiteMembers)
      .where(and(eq(websiteMembers.websiteId, site), eq(websiteMembers.userId, w.users.editor.id)));
    expect(await memberRole(db, { userId: w.users.editor.id }, site)).toBeNull();
    await db.update(websites).set({ deletedAt: new Date() }).where(eq(websites.id, w.websites.events));
    expect(await memberRole(db, { userId: w.users.owner.id }, w.websites.events)).toBeNull();
    await expect(
      authorizePerson(db, { userId: w.users.owner.id }, 'site.restore', w.websites.events),
    ).resolves.toMatchObject({ role: 'owner', website: { id: w.websites.events } });
  });
});
