// Each plan kind (R-PLAN-7) end to end over MCP: prepare, what the owner sees on the approval page,
// confirm, and the read-back of the effect — plus each kind's own refusals, with nothing written. Each
// prepare_* tool's plan row and its plain refusals (scope, input, another workspace's id) are in
// test/tools/<tool>.test.ts.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookings,
  companies,
  companyMembers,
  invitations,
  mailOutbox,
  pendingActions,
  products,
  websites,
} from '../../src/db/schema.js';
import { noProgress } from '../../src/domain/context.js';
import { Refusal } from '../../src/kernel/errors.js';
import { createPlan } from '../../src/plans/store.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { approve, fixture, planRow, prepareAndApprove } from './rail.js';
import { liveSnapshot } from '../helpers/live.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const confirm = (token: string, planId: string) => s.call(token, 'confirm_pending_action', { planId });

async function site(id: string) {
  const [row] = await db().select().from(websites).where(eq(websites.id, id));
  return row!;
}

async function plansOf(websiteId: string) {
  return db().select().from(pendingActions).where(eq(pendingActions.websiteId, websiteId));
}

async function productNamed(websiteId: string, name: string) {
  const [row] = await db()
    .select()
    .from(products)
    .where(and(eq(products.websiteId, websiteId), eq(products.name, name)));
  return row!;
}

describe('publish', () => {
  it('the approval page lists the draft changes; confirm publishes exactly that draft', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const page = await f.owner.get(`/approvals/${planId}`);
    expect(page.body).toContain('Changes that will go live');
    expect(page.body).toContain('Page &quot;Home&quot; (/home): text section edited.');
    expect(await approve(f.owner, planId)).toBe(303);
    expect((await confirm(f.demo.tokens.all, planId)).ok).toBe(true);
    const changes = await s.call(f.demo.tokens.all, 'list_draft_changes');
    expect(changes.data!.changes).toEqual([]);
  });

  it('is refused when the draft already matches the live site, and no plan is created', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_publish');
    expect((await confirm(f.demo.tokens.all, planId)).ok).toBe(true);
    const plans = (await plansOf(f.demo.websites.main)).length;
    const r = await s.call(f.demo.tokens.all, 'prepare_publish');
    expect(r.error?.code).toBe('conflict');
    expect(r.error?.message).toMatch(/already matches the live site/);
    expect(await plansOf(f.demo.websites.main)).toHaveLength(plans);
  });
});

describe('unpublish', () => {
  it('pins the published snapshot; confirm takes the site offline and keeps the draft', async () => {
    const f = await fixture(s);
    const planId = (await s.call(f.demo.tokens.all, 'prepare_unpublish')).data!.planId as string;
    expect((await f.owner.get(`/approvals/${planId}`)).body).toContain('Take Harbor Bakery offline');
    await approve(f.owner, planId);
    const r = await confirm(f.demo.tokens.all, planId);
    expect(r.data?.result).toEqual({ published: false });
    const w = await site(f.demo.websites.main);
    expect(w.publishedRev).toBeNull();
    expect(await liveSnapshot(db(), f.demo.websites.main)).toBeNull();
    expect(w.draftRev).toBe(2);
  });

  it('refuses a plan whose published snapshot changed after review', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_unpublish');
    await db()
      .update(websites)
      .set({ publishedAt: new Date(Date.now() + 1000) })
      .where(eq(websites.id, f.demo.websites.main));
    expect((await confirm(f.demo.tokens.all, planId)).error?.code).toBe('plan_revision_changed');
    expect(await liveSnapshot(db(), f.demo.websites.main)).not.toBeNull();
  });
});

describe('publish product', () => {
  it('shows the product at the reviewed revision and makes exactly that revision public', async () => {
    const f = await fixture(s);
    const gift = await productNamed(f.demo.websites.main, 'Gift card');
    const r = await s.call(f.demo.tokens.all, 'prepare_publish_product', { productId: gift.id });
    expect(r.data?.kind).toBe('publish_product');
    const planId = r.data!.planId as string;
    const page = await f.owner.get(`/approvals/${planId}`);
    expect(page.body).toContain('Gift card');
    expect(page.body).toContain('EUR 25.00');
    await approve(f.owner, planId);
    expect((await confirm(f.demo.tokens.all, planId)).ok).toBe(true);
    expect(await productNamed(f.demo.websites.main, 'Gift card')).toMatchObject({
      status: 'public',
      publishedRevision: 1,
    });
  });

  it('refuses when the product changed after review, and keeps it draft', async () => {
    const f = await fixture(s);
    const gift = await productNamed(f.demo.websites.main, 'Gift card');
    const planId = await prepareAndApprove(s, f, 'prepare_publish_product', { productId: gift.id });
    await db().update(products).set({ priceCents: 1, revision: 2 }).where(eq(products.id, gift.id));
    expect((await confirm(f.demo.tokens.all, planId)).error?.code).toBe('plan_revision_changed');
    expect((await productNamed(f.demo.websites.main, 'Gift card')).status).toBe('draft');
  });
});

describe('search visibility', () => {
  it('shows the change and applies it on confirm', async () => {
    const f = await fixture(s);
    const r = await s.call(f.demo.tokens.all, 'prepare_search_visibility', { visible: false });
    const planId = r.data!.planId as string;
    const page = await f.owner.get(`/approvals/${planId}`);
    expect(page.body).toContain('hidden from search engines');
    const noindex = async () =>
      (await (await fetch(`${s.url}/sites/${f.demo.websites.main}/`)).text()).includes(
        '<meta name="robots" content="noindex">',
      );
    expect(await noindex()).toBe(false);
    await approve(f.owner, planId);
    expect((await confirm(f.demo.tokens.all, planId)).data?.result).toEqual({ searchVisible: false });
    expect((await site(f.demo.websites.main)).searchVisible).toBe(false);
    // What the approval page promised: the live pages now ask search engines not to list them.
    expect(await noindex()).toBe(true);
  });

  it('refuses when the setting changed after review', async () => {
    const f = await fixture(s);
    const planId = await prepareAndApprove(s, f, 'prepare_search_visibility', { visible: false });
    // Someone changed the setting in the app after the owner reviewed the plan.
    await db().update(websites).set({ searchVisible: false }).where(eq(websites.id, f.demo.websites.main));
    expect((await confirm(f.demo.tokens.all, planId)).error?.code).toBe('plan_revision_changed');
    expect((await planRow(s, planId))!.status).toBe('approved');
  });

  it('is refused when the site already has that setting, and no plan is created', async () => {
    const f = await fixture(s);
    const r = await s.call(f.demo.tokens.all, 'prepare_search_visibility', { visible: true });
    expect(r.error?.code).toBe('conflict');
    expect(await plansOf(f.demo.websites.main)).toHaveLength(0);
  });
});

describe('grant access', () => {
  it('shows the address and level; confirm invites that address to this website only, returning no link', async () => {
    const f = await fixture(s);
    const r = await s.call(f.demo.tokens.all, 'prepare_grant_access', {
      email: 'New.Editor@Example.com',
      level: 'editor',
    });
    expect(r.ok).toBe(true);
    const planId = r.data!.planId as string;
    const page = await f.owner.get(`/approvals/${planId}`);
    expect(page.body).toContain('new.editor@example.com');
    expect(page.body).toContain('edit draft pages, sections and posts');
    await approve(f.owner, planId);
    const done = await confirm(f.demo.tokens.all, planId);
    expect(done.ok).toBe(true);
    expect(done.text).not.toMatch(/invitations\/|token|https?:\/\//);
    const inv = await db()
      .select()
      .from(invitations)
      .where(
        and(eq(invitations.websiteId, f.demo.websites.main), eq(invitations.email, 'new.editor@example.com')),
      );
    expect(inv).toHaveLength(1);
    expect(inv[0]).toMatchObject({ websiteId: f.demo.websites.main, level: 'editor', status: 'pending' });
    const mail = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, f.demo.websites.main), eq(mailOutbox.kind, 'invitation')));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to).toBe('new.editor@example.com');
    expect(mail[0]!.text).toMatch(/\/invitations\/[A-Za-z0-9_-]{40,}/);
    const listed = await s.call(f.demo.tokens.all, 'list_access');
    expect(listed.data!.invitations.map((i: { email: string }) => i.email)).toContain(
      'new.editor@example.com',
    );
    expect(listed.text).not.toMatch(/invitations\/|tokenHash/);
  });

  it('is owner-only at prepare: a creator who is now an editor is refused', async () => {
    const f = await fixture(s);
    const { websiteMembers } = await import('../../src/db/schema.js');
    await db()
      .update(websiteMembers)
      .set({ role: 'editor' })
      .where(
        and(
          eq(websiteMembers.websiteId, f.demo.websites.main),
          eq(websiteMembers.userId, f.demo.users.owner.id),
        ),
      );
    const r = await s.call(f.demo.tokens.all, 'prepare_grant_access', {
      email: 'x@example.com',
      level: 'viewer',
    });
    expect(r.error?.code).toBe('owner_only');
    const rows = await db()
      .select()
      .from(pendingActions)
      .where(eq(pendingActions.websiteId, f.demo.websites.main));
    expect(rows).toHaveLength(0);
  });

  it('refuses an address that already has access', async () => {
    const f = await fixture(s);
    const r = await s.call(f.demo.tokens.all, 'prepare_grant_access', {
      email: f.demo.users.editor.email,
      level: 'viewer',
    });
    expect(r.error?.code).toBe('conflict');
    expect(await plansOf(f.demo.websites.main)).toHaveLength(0);
  });
});

describe('create company', () => {
  it('shows the name; confirm creates a free company with nothing paid, owned by the creator', async () => {
    const f = await fixture(s);
    const name = `Harbor Catering ${f.demo.companyId}`;
    const r = await s.call(f.demo.tokens.all, 'prepare_create_company', { name });
    const planId = r.data!.planId as string;
    expect((await planRow(s, planId))!.websiteId).toBe(f.demo.websites.main);
    expect((await f.owner.get(`/approvals/${planId}`)).body).toContain(name);
    await approve(f.owner, planId);
    const done = await confirm(f.demo.tokens.all, planId);
    expect(done.data?.result).toMatchObject({ name, plan: 'free', credits: 0, websites: 0 });
    const [co] = await db().select().from(companies).where(eq(companies.name, name));
    expect(co).toMatchObject({
      plan: 'free',
      credits: 0,
      monthlyCreditReset: false,
      trialEndsAt: null,
      paymentCustomerId: null,
      agencyId: null,
    });
    const sites = await db().select().from(websites).where(eq(websites.companyId, co!.id));
    expect(sites).toHaveLength(0);
    const members = await db().select().from(companyMembers).where(eq(companyMembers.companyId, co!.id));
    expect(members).toEqual([expect.objectContaining({ userId: f.demo.users.owner.id, role: 'owner' })]);
  });
});

describe('booking side effects stay off the rail (R-VIS-2)', () => {
  it('no tool cancels, completes or reschedules, and a prepare for such a kind does not exist', async () => {
    const f = await fixture(s);
    const client = await s.client(f.demo.tokens.all);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => /cancel|complete|reschedul/.test(n))).toEqual([]);
    // An unknown tool is a protocol error (R-RESULT-4), not a tool result.
    await expect(s.call(f.demo.tokens.all, 'prepare_cancel_booking', { bookingId: 'x' })).rejects.toThrow(
      /Unknown tool/,
    );
  });

  it('the rail refuses to create or redeem a plan of an unknown kind, and touches no booking', async () => {
    const f = await fixture(s);
    const services = s.sg.deps.services;
    const w = await site(f.demo.websites.main);
    const ctx = {
      tx: db(),
      now: new Date(),
      actor: {
        userId: f.demo.users.owner.id,
        companyId: f.demo.companyId,
        connectionId: f.demo.connections.all,
      },
      services,
      progress: noProgress,
      website: w,
      role: 'owner' as const,
    };
    await expect(
      createPlan(ctx, 'cancel_booking', { subject: {}, pinnedRevision: 'x', summary: 'Cancel' }),
    ).rejects.toBeInstanceOf(Refusal);
    // Even a forged, approved row of such a kind is refused when redeemed.
    const [booking] = await db().select().from(bookings).where(eq(bookings.websiteId, f.demo.websites.main));
    await db()
      .insert(pendingActions)
      .values({
        id: `plan_forged${f.demo.companyId}`,
        kind: 'cancel_booking',
        websiteId: f.demo.websites.main,
        connectionId: f.demo.connections.all,
        creatorId: f.demo.users.owner.id,
        subject: { bookingId: booking!.id },
        pinnedRevision: 'x',
        summary: 'Cancel a booking',
        status: 'approved',
        expiresAt: new Date(Date.now() + 60_000),
      });
    const r = await confirm(f.demo.tokens.all, `plan_forged${f.demo.companyId}`);
    expect(r.error?.code).toBe('invalid_input');
    const [after] = await db().select().from(bookings).where(eq(bookings.id, booking!.id));
    expect(after!.status).toBe(booking!.status);
    expect((await planRow(s, `plan_forged${f.demo.companyId}`))!.status).toBe('approved');
  });
});
