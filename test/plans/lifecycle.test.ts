// The reviewed plan lifecycle (R-PLAN-1 to R-PLAN-6), one test per transition and per refusal, over MCP with the owner
// approving through the real signed-in page. Every refusal reads back that nothing was performed.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import {
  companies,
  connections,
  pendingActions,
  users,
  websiteMembers,
  websites,
} from '../../src/db/schema.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { PLAN_GC_GRACE_MS, PLAN_TTL_MS } from '../../src/plans/store.js';
import { type TestServer, runJob, startTestServer } from '../helpers/server.js';
import { signIn, webClient } from '../helpers/web.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { type Fixture, approve, fixture, planRow, prepareAndApprove, testClock } from './rail.js';
import { liveSnapshot } from '../helpers/live.js';

// Half an hour behind the real time. The plans job below is global: it ends 80 min further on, and at a
// clock that started at real time it deleted every live plan in the database (approvals.browser's,
// mid-approval, in CI while PostgreSQL was shared by every file). Its cut-off stays before any live
// plan's expiry.
const time = testClock(Date.now() - 30 * 60_000);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: time.clock });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

async function site(id: string) {
  const [row] = await db().select().from(websites).where(eq(websites.id, id));
  return row!;
}

async function plansOf(websiteId: string) {
  return db().select().from(pendingActions).where(eq(pendingActions.websiteId, websiteId));
}

/** The live heading of the edited intro section (the demo's one unpublished draft edit). */
async function liveIntroHeading(f: Fixture): Promise<string> {
  const live = (await liveSnapshot(db(), f.demo.websites.main))!;
  const home = live.pages.find((p) => p.id === f.demo.pages.home)!;
  const intro = home.sections.find((x) => x.id === f.demo.sections.intro)!;
  return (intro.content as { heading: string }).heading;
}

async function setRole(websiteId: string, userId: string, role: string) {
  await db()
    .update(websiteMembers)
    .set({ role })
    .where(and(eq(websiteMembers.websiteId, websiteId), eq(websiteMembers.userId, userId)));
}

// The plan a prepare_* tool creates, and its refusal without the scope: test/tools/prepare_publish.test.ts.
describe('(none) → pending: a prepare_* tool', () => {
  it("is refused when the creator's live role no longer suffices, and no plan is created", async () => {
    const f = await fixture(s);
    await setRole(f.demo.websites.main, f.demo.users.owner.id, 'viewer');
    const r = await s.call(f.demo.tokens.all, 'prepare_publish');
    expect(r.error?.code).toBe('role_insufficient');
    expect(await plansOf(f.demo.websites.main)).toHaveLength(0);
  });
});

describe('pending → approved: owner approval in a signed-in page', () => {
  it("is done by the anchor site's owner who created the connection", async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const list = await f.owner.get('/approvals');
    expect(list.body).toContain(`/approvals/${planId}`);
    expect(await approve(f.owner, planId)).toBe(303);
    expect(await planRow(s, planId)).toMatchObject({ status: 'approved', approvedBy: f.demo.users.owner.id });
  });

  it('is refused to a signed-in editor of the site; the plan stays pending', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const editor = await signIn(s.url, f.demo.users.editor.email, f.demo.users.editor.password);
    const page = await editor.get(`/approvals/${planId}`);
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('id="approve"');
    expect(page.body).toContain('Only the owner of this website can approve or decline its plans.');
    expect((await editor.post(`/approvals/${planId}/approve`)).status).toBe(403);
    expect((await editor.post(`/approvals/${planId}/decline`)).status).toBe(403);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it('is refused to another owner of the site who did not create the connection', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const email = `coowner+${newId('x').toLowerCase()}@demo.sitegate.test`;
    const id = newId('usr');
    await db()
      .insert(users)
      .values({ id, email, name: 'Co Owner', passwordHash: await hashPassword('co-pass-123') });
    await db().insert(websiteMembers).values({ websiteId: f.demo.websites.main, userId: id, role: 'owner' });
    const co = await signIn(s.url, email, 'co-pass-123');
    const page = await co.get(`/approvals/${planId}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('id="approve"');
    expect((await co.post(`/approvals/${planId}/approve`)).status).toBe(403);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it("is not found for another tenant's owner", async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const rival = await signIn(s.url, f.demo.users.otherOwner.email, f.demo.users.otherOwner.password);
    expect((await rival.get(`/approvals/${planId}`)).status).toBe(404);
    expect((await rival.get('/approvals')).body).not.toContain(planId);
    expect((await rival.post(`/approvals/${planId}/approve`)).status).toBe(404);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it('is refused for a form without its CSRF token', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    await f.owner.get(`/approvals/${planId}`);
    expect((await f.owner.post(`/approvals/${planId}/approve`, {}, { csrf: false })).status).toBe(403);
    expect(
      (await f.owner.post(`/approvals/${planId}/approve`, { _csrf: 'forged' }, { csrf: false })).status,
    ).toBe(403);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it('needs a signed-in session: without one the form leads to sign-in and nothing is approved', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const anon = webClient(s.url);
    await anon.get('/login');
    const r = await anon.post(`/approvals/${planId}/approve`);
    expect(r.status).toBe(303);
    expect(r.location).toMatch(/^\/login\?next=/);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it('an owner can decline; a declined plan cannot be confirmed', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    await f.owner.get(`/approvals/${planId}`);
    expect((await f.owner.post(`/approvals/${planId}/decline`)).status).toBe(303);
    expect((await planRow(s, planId))!.status).toBe('declined');
    expect(await approve(f.owner, planId)).toBe(409);
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('review_required');
    // A code the tool's description names, and no push to ask for the same thing again straight away.
    const { tools } = await (await s.client(f.demo.tokens.all)).listTools();
    const confirm = tools.find((t) => t.name === 'confirm_pending_action')!;
    expect(confirm.description).toMatch(/review_required \(declined/);
    expect(r.error?.hint).toMatch(/ask the owner/i);
    expect(r.error?.hint).not.toMatch(/prepare_\* tool again|call .* again/i);
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });
});

// Another workspace's caller gets not_found: test/tools/confirm_pending_action.test.ts.
describe('approved → redeemed: confirm_pending_action', () => {
  it('performs the approved action once and marks the plan redeemed', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({
      planId,
      kind: 'publish',
      status: 'redeemed',
      result: { published: true },
    });
    expect(await liveIntroHeading(f)).toBe('Welcome to Harbor Bakery');
    expect((await site(f.demo.websites.main)).publishedRev).toBe(2);
    expect(await planRow(s, planId)).toMatchObject({ status: 'redeemed', result: { published: true } });
  });

  it("a carried-out plan's preview is the live site while it is that revision, then says it changed", async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    const pending = await f.owner.get(`/approvals/${planId}/preview/`);
    expect(pending.html).toContain('exactly as you are reviewing it');
    expect((await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId })).ok).toBe(true);
    const live = await f.owner.get(`/approvals/${planId}/preview/`);
    expect(live.status).toBe(200);
    expect(live.html).toContain('as it is live now');
    expect(live.html).toContain('Welcome to Harbor Bakery');
    const edit = await s.call(f.demo.tokens.all, 'update_section_text', {
      pageId: f.demo.pages.home,
      sectionId: f.demo.sections.intro,
      text: { heading: 'A later heading' },
    });
    expect(edit.ok).toBe(true);
    // The draft moved on, but the live site is still the plan's revision.
    expect((await f.owner.get(`/approvals/${planId}/preview/`)).html).toContain('as it is live now');
    await s.sg.deps.services.db.transaction((tx) => publishDraft(tx, f.demo.websites.main, new Date()));
    const gone = await f.owner.get(`/approvals/${planId}/preview/`);
    expect(gone.status).toBe(409);
    expect(gone.html).toContain('The site has changed since this plan was settled');
    expect(gone.html).not.toContain('A later heading');
  });

  it('refuses after the 5 minutes (plan_expired) and performs nothing', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    time.advance(PLAN_TTL_MS);
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_expired');
    expect(await liveIntroHeading(f)).toBe('Welcome');
    expect((await planRow(s, planId))!.status).toBe('approved');
  });

  it('refuses a second use (plan_used) and performs nothing more', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    expect((await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId })).ok).toBe(true);
    const before = await site(f.demo.websites.main);
    time.advance(1000);
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_used');
    const after = await site(f.demo.websites.main);
    expect(after.publishedAt).toEqual(before.publishedAt);
  });

  it('refuses when the reviewed revision changed (plan_revision_changed) and performs nothing', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    // An edit after review, by the assistant's own tool: the owner approved a different draft than the
    // one that would go live.
    const edit = await s.call(f.demo.tokens.all, 'update_section_text', {
      pageId: f.demo.pages.home,
      sectionId: f.demo.sections.intro,
      text: { heading: 'Edited after review' },
    });
    expect(edit.ok).toBe(true);
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_revision_changed');
    expect(await liveIntroHeading(f)).toBe('Welcome');
    expect((await planRow(s, planId))!.status).toBe('approved');
  });

  it('refuses another caller of the same workspace (plan_wrong_caller) and performs nothing', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    const r = await s.call(f.demo.tokens.workspace, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_wrong_caller');
    expect(await liveIntroHeading(f)).toBe('Welcome');
    expect((await planRow(s, planId))!.status).toBe('approved');
  });

  it('refuses an access plan when the owner is no longer owner, and invites nobody', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_grant_access', {
      email: 'late.owner@example.com',
      level: 'editor',
    });
    await setRole(f.demo.websites.main, f.demo.users.owner.id, 'editor');
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('owner_only');
    const { invitations, mailOutbox } = await import('../../src/db/schema.js');
    const inv = await db().select().from(invitations).where(eq(invitations.email, 'late.owner@example.com'));
    expect(inv).toHaveLength(0);
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.to, 'late.owner@example.com'));
    expect(mail).toHaveLength(0);
  });

  it("refuses when the plan's website is no longer reachable by the caller, and performs nothing", async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    await db()
      .delete(websiteMembers)
      .where(
        and(
          eq(websiteMembers.websiteId, f.demo.websites.main),
          eq(websiteMembers.userId, f.demo.users.owner.id),
        ),
      );
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('role_insufficient');
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });

  it("needs the scope of the plan's kind, checked when redeeming", async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    const [conn] = await db().select().from(connections).where(eq(connections.id, f.demo.connections.all));
    await db()
      .update(connections)
      .set({ scopes: conn!.scopes.filter((x) => x !== 'publish') })
      .where(eq(connections.id, conn!.id));
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('scope_missing');
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });

  it('refuses when the agency switched the area off after approval, and performs nothing', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    await db()
      .update(companies)
      .set({ withheldAreas: ['publishing'] })
      .where(eq(companies.id, f.demo.companyId));
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('area_disabled');
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });
});

describe('pending or approved → expired after 5 minutes', () => {
  it('an expired pending plan leaves the waiting list and cannot be approved', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    expect((await f.owner.get('/approvals')).body).toContain(planId);
    time.advance(PLAN_TTL_MS);
    // It leaves the waiting list and is kept under "Decided and expired", without a link to approve.
    const page = (await f.owner.get('/approvals')).body;
    expect(page).not.toContain(`href="/approvals/${planId}"`);
    expect(page).toContain(`data-plan="${planId}" data-outcome="expired"`);
    expect((await f.owner.get(`/approvals/${planId}`)).status).toBe(410);
    expect((await f.owner.post(`/approvals/${planId}/approve`)).status).toBe(410);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it('confirming an expired pending plan is refused with plan_expired and performs nothing', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    time.advance(PLAN_TTL_MS);
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_expired');
    expect((await planRow(s, planId))!.status).toBe('pending');
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });

  it('expired plans are garbage-collected by the running service', async () => {
    const f = await fixture(s);
    const old = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    time.advance(PLAN_TTL_MS + PLAN_GC_GRACE_MS + 1000);
    const fresh = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    await runJob(s, 'plans');
    expect(await planRow(s, old)).toBeUndefined();
    expect((await planRow(s, fresh))?.status).toBe('pending');
  });
});

describe('pending + confirm without owner approval', () => {
  it('is refused with plan_pending; the plan remains pending and nothing is performed', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('plan_pending');
    expect(r.error?.hint).toMatch(/approve/);
    expect((await planRow(s, planId))!.status).toBe('pending');
    expect(await liveIntroHeading(f)).toBe('Welcome');
  });
});

describe('additional rules', () => {
  it('a text-only client can prepare but cannot approve or redeem', async () => {
    const f = await fixture(s);
    const client = await s.client(f.demo.tokens.all);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('prepare_publish');
    expect(names.filter((n) => /approve/.test(n))).toEqual([]);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    // The bearer token is no web session: the approval form refuses it.
    const res = await fetch(`${s.url}/approvals/${planId}/approve`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${f.demo.tokens.all}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect((await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId })).error?.code).toBe(
      'plan_pending',
    );
    expect((await planRow(s, planId))!.status).toBe('pending');
  });

  it("re-pointing a plan to another tenant's site is refused: redemption re-authorizes on the plan's site", async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(
      s,
      f,
      'prepare_search_visibility',
      { visible: false, websiteId: f.demo.websites.main },
      f.demo.tokens.workspace,
    );
    const before = await site(f.demo.websites.otherTenant);
    await db()
      .update(pendingActions)
      .set({ websiteId: f.demo.websites.otherTenant })
      .where(eq(pendingActions.id, planId));
    const r = await s.call(f.demo.tokens.workspace, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('not_found');
    expect((await site(f.demo.websites.otherTenant)).searchVisible).toBe(before.searchVisible);
    expect((await site(f.demo.websites.main)).searchVisible).toBe(true);
    expect((await planRow(s, planId))!.status).toBe('approved');
  });

  it('every refusal is recorded in Activity as denied with its code', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    await s.sg.deps.activity.flush();
    const { activity } = await import('../../src/db/schema.js');
    const lines = await db()
      .select()
      .from(activity)
      .where(
        and(eq(activity.connectionId, f.demo.connections.all), eq(activity.tool, 'confirm_pending_action')),
      );
    expect(lines.map((l) => [l.outcome, l.code])).toEqual([['denied', 'plan_pending']]);
  });
});
