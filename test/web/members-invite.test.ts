// The members page's invitations and level changes: the owner invites an address as editor or viewer
// (the same invitation the reviewed plan creates: a pending row and its email in the outbox), changes
// a member between editor and viewer, and resends a pending invitation with a fresh link. Every
// refusal (an editor, a viewer, another tenant's owner, no CSRF, an invalid address, owner as the
// level, an existing member, an address already invited, a stale level form) writes nothing: no
// invitation, no email, no membership change, no Activity line.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, invitations, mailOutbox, websiteMembers } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type WebSession, signIn } from '../helpers/web.js';

let a: TestServer;
beforeAll(async () => {
  a = await startTestServer({ seed: false });
});
afterAll(async () => {
  await a?.close();
});

const db = () => a.sg.deps.services.db;
const membersPath = (id: string) => `/dashboard/sites/${id}/members`;

/** Everything these actions could write for a site, counted. */
async function written(websiteId: string) {
  const n = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]!.n);
  const members = await db().select().from(websiteMembers).where(eq(websiteMembers.websiteId, websiteId));
  const invs = await db().select().from(invitations).where(eq(invitations.websiteId, websiteId));
  return {
    invitations: invs.map((i) => `${i.email}:${i.level}:${i.status}:${i.tokenHash}`).sort(),
    mail: await n(db().select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.websiteId, websiteId))),
    activity: await n(db().select({ n: count() }).from(activity).where(eq(activity.websiteId, websiteId))),
    roster: members.map((m) => `${m.userId}:${m.role}`).sort(),
  };
}

async function owner(d: Demo): Promise<WebSession> {
  const web = await signIn(a.url, d.users.owner.email, d.users.owner.password);
  await web.get(membersPath(d.websites.main));
  return web;
}

async function pendingOf(websiteId: string, email: string) {
  return db()
    .select()
    .from(invitations)
    .where(and(eq(invitations.websiteId, websiteId), eq(invitations.email, email)));
}

describe('members: invite, change level, resend', () => {
  it('the owner invites as editor: a pending invitation, its email queued, an Activity line without the address', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const email = `New-${uniqueTag()}@Example.com`;
    const before = await written(d.websites.main);
    const r = await web.post(`${membersPath(d.websites.main)}/invite`, { email, level: 'editor' });
    expect(r.status).toBe(303);
    expect(r.location).toContain('done=invited.');
    const [inv] = await pendingOf(d.websites.main, email.toLowerCase());
    expect(inv).toMatchObject({ level: 'editor', status: 'pending', invitedBy: d.users.owner.id });
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.websiteId, d.websites.main));
    const letter = mail.find((m) => m.to === email.toLowerCase());
    expect(letter?.kind).toBe('invitation');
    expect(letter?.text).toContain('/invitations/');
    const after = await written(d.websites.main);
    expect(after.mail).toBe(before.mail + 1);
    expect(after.activity).toBe(before.activity + 1);
    const [line] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'invite_member')));
    expect(line!.summary).toContain('editor');
    expect(line!.summary.toLowerCase()).not.toContain(email.toLowerCase());
    const page = await web.get(r.location!);
    expect(page.html).toContain(`data-invitation="${inv!.id}"`);
    // No SMTP_URL on the test server: the flash says the email has not left.
    expect(page.html).toContain('has not left');
  });

  it('refuses an existing member, an address already invited, an invalid address and owner as the level; nothing written', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const invited = `pending-${uniqueTag()}@example.com`;
    expect(
      (await web.post(`${membersPath(d.websites.main)}/invite`, { email: invited, level: 'viewer' })).status,
    ).toBe(303);
    await web.get(membersPath(d.websites.main));
    const before = await written(d.websites.main);
    const cases: Array<[Record<string, string>, string]> = [
      [{ email: d.users.editor.email, level: 'viewer' }, 'already has access'],
      [{ email: invited.toUpperCase(), level: 'editor' }, 'already has a pending invitation'],
      [{ email: 'not an address', level: 'viewer' }, 'Enter one email address'],
      [{ email: `x-${uniqueTag()}@example.com`, level: 'owner' }, 'Owner access is never given'],
      [{ email: `y-${uniqueTag()}@example.com`, level: '' }, 'Choose editor or viewer'],
    ];
    for (const [form, words] of cases) {
      const r = await web.post(`${membersPath(d.websites.main)}/invite`, form);
      expect(r.status, JSON.stringify(form)).toBeGreaterThanOrEqual(400);
      expect(r.html, JSON.stringify(form)).toContain(words);
    }
    expect(await written(d.websites.main)).toEqual(before);
  });

  it('two invitations of one address at the same moment leave one invitation and one email', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const email = `twice-${uniqueTag()}@example.com`;
    const before = await written(d.websites.main);
    const results = await Promise.all([
      web.post(`${membersPath(d.websites.main)}/invite`, { email, level: 'viewer' }),
      web.post(`${membersPath(d.websites.main)}/invite`, { email, level: 'editor' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(await pendingOf(d.websites.main, email)).toHaveLength(1);
    const after = await written(d.websites.main);
    expect(after.mail).toBe(before.mail + 1);
    expect(after.activity).toBe(before.activity + 1);
  });

  it('changes an editor to viewer; refuses the owner row, owner as the level and a stale form', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const path = (u: string) => `${membersPath(d.websites.main)}/${u}/level`;
    const page = await web.get(membersPath(d.websites.main));
    expect(page.html).toContain(`id="level-${d.users.editor.id}"`);
    expect(page.html).not.toContain(`id="level-${d.users.owner.id}"`);
    const r = await web.post(path(d.users.editor.id), { level: 'viewer', shown: 'editor' });
    expect(r.status).toBe(303);
    const role = async (u: string) =>
      (
        await db()
          .select()
          .from(websiteMembers)
          .where(and(eq(websiteMembers.websiteId, d.websites.main), eq(websiteMembers.userId, u)))
      )[0]!.role;
    expect(await role(d.users.editor.id)).toBe('viewer');
    const [line] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'change_member_level')));
    expect(line!.summary).toBe('The owner changed a member from editor to viewer.');
    await web.get(membersPath(d.websites.main));
    const before = await written(d.websites.main);
    for (const [u, form, status] of [
      // The page showed them as editor; they are viewer now.
      [d.users.editor.id, { level: 'viewer', shown: 'editor' }, 409],
      [d.users.viewer.id, { level: 'owner', shown: 'viewer' }, 400],
      [d.users.owner.id, { level: 'viewer', shown: 'owner' }, 409],
      ['usr_nobody', { level: 'viewer', shown: 'editor' }, 404],
    ] as const) {
      const res = await web.post(path(u), form);
      expect(res.status, `${u} ${JSON.stringify(form)}`).toBe(status);
    }
    expect(await written(d.websites.main)).toEqual(before);
    expect(await role(d.users.editor.id)).toBe('viewer');
  });

  it('resends a pending invitation with a new link: one more email, the old link stops working', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const email = `resend-${uniqueTag()}@example.com`;
    await web.post(`${membersPath(d.websites.main)}/invite`, { email, level: 'viewer' });
    const [inv] = await pendingOf(d.websites.main, email);
    const letters = async () =>
      (await db().select().from(mailOutbox).where(eq(mailOutbox.to, email))).map((m) => m.text);
    const [first] = await letters();
    const oldLink = /\/invitations\/([A-Za-z0-9_-]+)/.exec(first!)![1]!;
    await web.get(membersPath(d.websites.main));
    const r = await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv!.id}/resend`);
    expect(r.status).toBe(303);
    expect(r.location).toContain('done=resent.');
    const all = await letters();
    expect(all).toHaveLength(2);
    const newLink = /\/invitations\/([A-Za-z0-9_-]+)/.exec(all.find((t) => t !== first)!)![1]!;
    expect(newLink).not.toBe(oldLink);
    const [after] = await pendingOf(d.websites.main, email);
    expect(after!.tokenHash).not.toBe(inv!.tokenHash);
    expect(after!.status).toBe('pending');
    // Only the new link's hash is kept: the old link finds no invitation any more.
    expect(after!.tokenHash).toBe(sha256Hex(newLink));
    expect(after!.tokenHash).not.toBe(sha256Hex(oldLink));
    const [line] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'resend_invitation')));
    expect(line!.summary).not.toContain(email);
    // A revoked invitation is not resent.
    await web.get(membersPath(d.websites.main));
    await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv!.id}/revoke`);
    await web.get(membersPath(d.websites.main));
    const before = await written(d.websites.main);
    expect((await web.post(`/dashboard/sites/${d.websites.main}/invitations/${inv!.id}/resend`)).status).toBe(
      404,
    );
    expect(await written(d.websites.main)).toEqual(before);
  });

  it('an editor, a viewer and another tenant’s owner are refused; without CSRF nothing happens', async () => {
    const d = await a.seed();
    const web = await owner(d);
    const invited = `keep-${uniqueTag()}@example.com`;
    await web.post(`${membersPath(d.websites.main)}/invite`, { email: invited, level: 'viewer' });
    const [inv] = await pendingOf(d.websites.main, invited);
    const before = await written(d.websites.main);
    const attempts = (session: WebSession, csrf = true) => [
      session.post(
        `${membersPath(d.websites.main)}/invite`,
        { email: `z-${uniqueTag()}@example.com`, level: 'editor' },
        { csrf },
      ),
      session.post(
        `${membersPath(d.websites.main)}/${d.users.viewer.id}/level`,
        { level: 'editor', shown: 'viewer' },
        { csrf },
      ),
      session.post(`/dashboard/sites/${d.websites.main}/invitations/${inv!.id}/resend`, {}, { csrf }),
    ];
    for (const [who, status] of [
      [d.users.editor, 403],
      [d.users.viewer, 403],
      [d.users.otherOwner, 404],
    ] as const) {
      const s = await signIn(a.url, who.email, who.password);
      await s.get('/');
      for (const attempt of attempts(s)) expect((await attempt).status, who.email).toBe(status);
    }
    await web.get(membersPath(d.websites.main));
    for (const attempt of attempts(web, false)) expect((await attempt).status).toBe(403);
    expect(await written(d.websites.main)).toEqual(before);
  });
});
