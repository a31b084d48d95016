// The console's members page: members and pending invitations; removing a member (never yourself,
// never the last owner) and revoking an invitation. A removal holds at the member's next request on
// another instance (own pool and caches; on PostgreSQL with DATABASE_URL): their sign-in no longer
// reaches the site, its draft preview or their plans' approval pages, and their connection is refused
// by the gate's live role check. The owner succeeds; an editor, a viewer and another tenant's owner are
// refused with nothing changed; CSRF is required.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/auth/connections.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { activity, invitations, websiteMembers } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { createOwner } from '../../src/domain/admin/operator.js';
import { newId } from '../../src/kernel/ids.js';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { SCOPES } from '../../src/kernel/scopes.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let a: TestServer;
let b: TestServer;
let second: Database | null = null;
beforeAll(async () => {
  a = await startTestServer({ seed: false });
  // The second instance: its own pool and caches on PostgreSQL; the same embedded database otherwise.
  if (process.env.DATABASE_URL) second = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
  b = await startTestServer({ seed: false, database: second ?? a.sg.database });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await second?.close();
});

const db = () => a.sg.deps.services.db;
const membersOf = (id: string) => `/dashboard/sites/${id}/members`;
const roster = async (websiteId: string) =>
  (await db().select().from(websiteMembers).where(eq(websiteMembers.websiteId, websiteId)))
    .map((m) => `${m.userId}:${m.role}`)
    .sort();

async function invite(d: Demo, email: string) {
  const token = randomBytes(32).toString('base64url');
  const id = newId('inv');
  await db()
    .insert(invitations)
    .values({
      id,
      websiteId: d.websites.main,
      email,
      level: 'viewer',
      tokenHash: sha256Hex(token),
      invitedBy: d.users.owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
  return { id, token };
}

/** A second owner of the main site, with a connection of their own and a plan waiting for them. */
async function coOwner(d: Demo) {
  const email = `co-${uniqueTag()}@example.com`;
  const password = 'co-owner-password-1';
  const { userId } = await createOwner(db(), { email, name: 'Casey Co-owner', password });
  await db().insert(websiteMembers).values({ websiteId: d.websites.main, userId, role: 'owner' });
  const { token } = await createConnection(db(), {
    userId,
    websiteId: d.websites.main,
    name: 'Casey assistant',
    scopes: SCOPES,
  });
  const plan = await a.call(token!, 'prepare_unpublish', {});
  expect(plan.ok, JSON.stringify(plan.error)).toBe(true);
  return { userId, email, password, token: token!, planId: plan.data!.planId as string };
}

describe('members', () => {
  it('lists members and pending invitations; revokes an invitation so its link no longer works', async () => {
    const d = await a.seed();
    const invitee = `invitee-${uniqueTag()}@example.com`;
    const ivyId = (
      await createOwner(db(), { email: invitee, name: 'Ivy Invitee', password: 'invitee-password-1' })
    ).userId;
    const inv = await invite(d, invitee);
    const web = await signIn(a.url, d.users.owner.email, d.users.owner.password);
    const page = await web.get(membersOf(d.websites.main));
    expect(page.status).toBe(200);
    expect(page.html.startsWith('<!doctype html>')).toBe(true);
    for (const u of [d.users.owner, d.users.editor, d.users.viewer])
      expect(page.html).toContain(`data-member="${u.id}"`);
    expect(page.html).toContain(`data-invitation="${inv.id}"`);
    const r = await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv.id}/revoke`);
    expect(r.status).toBe(303);
    const [row] = await db().select().from(invitations).where(eq(invitations.id, inv.id));
    expect(row!.status).toBe('revoked');
    expect((await web.get(membersOf(d.websites.main))).html).not.toContain(`data-invitation="${inv.id}"`);
    const ivy = await signIn(b.url, invitee, 'invitee-password-1');
    expect((await ivy.get(`/invitations/${inv.token}`)).status).not.toBe(200);
    expect((await ivy.post(`/invitations/${inv.token}/accept`)).status).not.toBe(200);
    expect((await roster(d.websites.main)).some((r) => r.startsWith(`${ivyId}:`))).toBe(false);
    // Twice is not found.
    expect((await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv.id}/revoke`)).status).toBe(
      404,
    );
  });

  it('a removal holds at the member’s next request on another instance: session, preview, approvals, connection', async () => {
    const d = await a.seed();
    const co = await coOwner(d);
    // Casey is signed in on instance B and uses everything once, so whatever B caches is warm.
    const casey = await signIn(b.url, co.email, co.password);
    expect((await casey.get(`/editor/${d.websites.main}/`)).status).toBe(200);
    expect((await casey.get(`/approvals/${co.planId}`)).status).toBe(200);
    expect((await casey.get(membersOf(d.websites.main))).status).toBe(200);
    expect((await b.call(co.token, 'list_pages', {})).ok).toBe(true);
    const editor = await signIn(b.url, d.users.editor.email, d.users.editor.password);
    expect((await editor.get(`/editor/${d.websites.main}/`)).status).toBe(200);

    // The owner removes both on instance A.
    const owner = await signIn(a.url, d.users.owner.email, d.users.owner.password);
    const confirm = await owner.get(`${membersOf(d.websites.main)}/${co.userId}/remove`);
    expect(confirm.html).toContain('confirm-remove');
    expect((await owner.post(`${membersOf(d.websites.main)}/${co.userId}/remove`)).status).toBe(303);
    await owner.get(membersOf(d.websites.main));
    expect((await owner.post(`${membersOf(d.websites.main)}/${d.users.editor.id}/remove`)).status).toBe(303);

    // Their very next requests on B.
    expect((await casey.get(`/editor/${d.websites.main}/`)).status).toBe(404);
    expect((await casey.get(`/approvals/${co.planId}`)).status).toBe(404);
    expect((await casey.get(membersOf(d.websites.main))).status).toBe(404);
    expect((await b.call(co.token, 'list_pages', {})).error?.code).toBe('role_insufficient');
    expect((await editor.get(`/editor/${d.websites.main}/`)).status).toBe(404);
    // The session itself still works elsewhere (signing in is not a site's to take).
    expect((await casey.get('/')).status).toBe(200);

    const lines = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'remove_member')));
    expect(lines.map((l) => l.summary).sort()).toEqual([
      'The owner removed a member (editor) from the site.',
      'The owner removed a member (owner) from the site.',
    ]);
  });

  it('never yourself; two owners removing each other at once leave one owner', async () => {
    const d = await a.seed();
    const owner = await signIn(a.url, d.users.owner.email, d.users.owner.password);
    await owner.get(membersOf(d.websites.main));
    expect((await owner.post(`${membersOf(d.websites.main)}/${d.users.owner.id}/remove`)).status).toBe(409);
    expect((await owner.get(`${membersOf(d.websites.main)}/${d.users.owner.id}/remove`)).status).toBe(404);

    const co = await coOwner(d);
    const casey = await signIn(b.url, co.email, co.password);
    await casey.get(membersOf(d.websites.main));
    const [x, y] = await Promise.all([
      owner.post(`${membersOf(d.websites.main)}/${co.userId}/remove`),
      casey.post(`${membersOf(d.websites.main)}/${d.users.owner.id}/remove`),
    ]);
    const owners = (await roster(d.websites.main)).filter((r) => r.endsWith(':owner'));
    expect(owners).toHaveLength(1);
    expect([x.status, y.status].filter((st) => st === 303)).toHaveLength(1);
  });

  it('an editor, a viewer and another tenant’s owner are refused; without CSRF nothing happens', async () => {
    const d = await a.seed();
    const inv = await invite(d, `invitee-${uniqueTag()}@example.com`);
    const before = await roster(d.websites.main);
    for (const [who, status] of [
      [d.users.editor, 403],
      [d.users.viewer, 403],
      [d.users.otherOwner, 404],
    ] as const) {
      const web = await signIn(a.url, who.email, who.password);
      expect((await web.get(membersOf(d.websites.main))).status, who.email).toBe(status);
      await web.get('/');
      expect((await web.post(`${membersOf(d.websites.main)}/${d.users.viewer.id}/remove`)).status).toBe(
        status,
      );
      expect(
        (await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv.id}/revoke`)).status,
      ).toBe(status);
    }
    const owner = await signIn(a.url, d.users.owner.email, d.users.owner.password);
    await owner.get(membersOf(d.websites.main));
    expect(
      (await owner.post(`${membersOf(d.websites.main)}/${d.users.viewer.id}/remove`, {}, { csrf: false }))
        .status,
    ).toBe(403);
    expect(
      (
        await owner.post(
          `/dashboard/sites/${d.websites.main}/invitations/${inv.id}/revoke`,
          {},
          { csrf: false },
        )
      ).status,
    ).toBe(403);
    expect(await roster(d.websites.main)).toEqual(before);
    const [row] = await db().select().from(invitations).where(eq(invitations.id, inv.id));
    expect(row!.status).toBe('pending');
  });
});
