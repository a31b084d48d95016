// Accepting a mailed invitation: only the invited address, once, before expiry, at the invited level
// and never lowering a higher role. Every refusal leaves memberships and the invitation unchanged.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { newId } from '../../src/kernel/ids.js';
import { invitations, websiteMembers } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

async function invite(
  websiteId: string,
  email: string,
  level: 'editor' | 'viewer',
  expiresInMs = 86_400_000,
) {
  const token = randomBytes(32).toString('base64url');
  const id = newId('inv');
  await db()
    .insert(invitations)
    .values({
      id,
      websiteId,
      email,
      level,
      tokenHash: sha256Hex(token),
      invitedBy: s.demo.users.owner.id,
      expiresAt: new Date(Date.now() + expiresInMs),
    });
  return { token, id };
}
const roleOf = async (websiteId: string, userId: string) =>
  (
    await db()
      .select({ role: websiteMembers.role })
      .from(websiteMembers)
      .where(and(eq(websiteMembers.websiteId, websiteId), eq(websiteMembers.userId, userId)))
  )[0]?.role ?? null;
const statusOf = async (id: string) =>
  (await db().select({ status: invitations.status }).from(invitations).where(eq(invitations.id, id)))[0]
    ?.status;

describe('accepting an invitation', () => {
  it('the invited person joins that one website at the invited level, once', async () => {
    const d = await s.seed();
    const { token, id } = await invite(d.websites.events, d.users.viewer.email, 'editor');
    const web = await signIn(s.url, d.users.viewer.email, d.users.viewer.password);
    const page = await web.get(`/invitations/${token}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Join Harbor Bakery Events');
    const ok = await web.post(`/invitations/${token}/accept`);
    expect(ok.status).toBe(200);
    expect(await roleOf(d.websites.events, d.users.viewer.id)).toBe('editor');
    expect(await roleOf(d.websites.main, d.users.viewer.id)).toBe('viewer'); // untouched
    expect(await statusOf(id)).toBe('accepted');
    const again = await web.post(`/invitations/${token}/accept`);
    expect(again.status).toBe(404);
  });

  it('another signed-in person cannot use the link; nothing changes', async () => {
    const d = await s.seed();
    const { token, id } = await invite(d.websites.events, 'someone.else@example.com', 'viewer');
    const web = await signIn(s.url, d.users.viewer.email, d.users.viewer.password);
    expect((await web.get(`/invitations/${token}`)).status).toBe(403);
    expect((await web.post(`/invitations/${token}/accept`)).status).toBe(403);
    expect(await roleOf(d.websites.events, d.users.viewer.id)).toBeNull();
    expect(await statusOf(id)).toBe('pending');
  });

  it('an expired link is refused; a forged one is not found; without CSRF nothing happens', async () => {
    const d = await s.seed();
    const expired = await invite(d.websites.events, d.users.viewer.email, 'viewer', -1000);
    const web = await signIn(s.url, d.users.viewer.email, d.users.viewer.password);
    expect((await web.post(`/invitations/${expired.token}/accept`)).status).toBe(410);
    expect((await web.post(`/invitations/${randomBytes(32).toString('base64url')}/accept`)).status).toBe(404);
    const live = await invite(d.websites.events, d.users.viewer.email, 'viewer');
    await web.get(`/invitations/${live.token}`);
    expect((await web.post(`/invitations/${live.token}/accept`, {}, { csrf: false })).status).toBe(403);
    expect(await roleOf(d.websites.events, d.users.viewer.id)).toBeNull();
    expect(await statusOf(expired.id)).toBe('pending');
    expect(await statusOf(live.id)).toBe('pending');
  });

  it('never lowers a higher role', async () => {
    const d = await s.seed();
    const { token } = await invite(d.websites.main, d.users.editor.email, 'viewer');
    const web = await signIn(s.url, d.users.editor.email, d.users.editor.password);
    expect((await web.post(`/invitations/${token}/accept`)).status).toBe(200);
    expect(await roleOf(d.websites.main, d.users.editor.id)).toBe('editor');
  });

  it('asks to sign in first', async () => {
    const { token } = await invite(s.demo.websites.events, 'x@example.com', 'viewer');
    const r = await fetch(`${s.url}/invitations/${token}`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toContain('/login?next=');
  });
});
