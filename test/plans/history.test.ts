// Approvals the owner can follow: a new plan emails every owner of its site through the outbox (what
// is asked, the deadline, the link) when a mail server is configured, and not otherwise; /approvals
// keeps decided and expired plans beside the waiting ones (approved, declined, expired, carried out,
// with when and through which connection) and reloads itself while a plan waits (unless the owner unticks it).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, websiteMembers } from '../../src/db/schema.js';
import { createOwner } from '../../src/domain/admin/operator.js';
import { PLAN_TTL_MS } from '../../src/plans/store.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { approve, fixture, testClock } from './rail.js';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
let bare: TestServer;
const time = testClock();
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    seed: false,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sitegate <mail@sitegate.test>' },
    clock: time.clock,
  });
  bare = await startTestServer({ seed: false, database: s.sg.database });
});
afterAll(async () => {
  await bare?.close();
  await s?.close();
  await smtp?.close();
});

const db = () => s.sg.deps.services.db;

describe('a new plan', () => {
  it('emails every owner of its site: what is asked, the deadline, the link', async () => {
    const f = await fixture(s);
    const second = `second-owner-${uniqueTag()}@example.com`;
    const { userId } = await createOwner(db(), {
      email: second,
      name: 'Second Owner',
      password: 'second-owner-pw1',
    });
    await db().insert(websiteMembers).values({ websiteId: f.demo.websites.main, userId, role: 'owner' });
    const r = await s.call(f.demo.tokens.all, 'prepare_unpublish');
    expect(r.ok).toBe(true);
    const planId = r.data!.planId as string;
    for (const to of [f.demo.users.owner.email, second]) {
      const msg = await smtp.waitFor(to);
      const body = msg.raw.replace(/=\r?\n/g, '');
      expect(body).toContain('Take Harbor Bakery offline');
      expect(body).toContain(`/approvals/${planId}`);
      expect(body).toMatch(/before \d{1,2} \w{3} \d{4}/);
    }
    // The editor and the viewer are not asked.
    const rows = await db()
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, f.demo.websites.main), eq(mailOutbox.kind, 'plan')));
    expect(rows.map((x) => x.to).sort()).toEqual([f.demo.users.owner.email, second].sort());
  });

  it('queues no email when no mail server is configured', async () => {
    const d = await bare.seed();
    expect((await bare.call(d.tokens.all, 'prepare_unpublish')).ok).toBe(true);
    const rows = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.websiteId, d.websites.main), eq(mailOutbox.kind, 'plan')));
    expect(rows).toEqual([]);
  });
});

describe('/approvals', () => {
  it('keeps approved, declined, expired and carried-out plans beside the waiting ones, and refreshes while one waits', async () => {
    const f = await fixture(s);
    const t = f.demo.tokens.all;
    const planOf = async (tool: string, args: Record<string, unknown> = {}) => {
      const r = await s.call(t, tool, args);
      expect(r.ok, JSON.stringify(r.error)).toBe(true);
      return r.data!.planId as string;
    };
    const expired = await planOf('prepare_grant_access', {
      email: `late-${uniqueTag()}@example.com`,
      level: 'viewer',
    });
    time.advance(PLAN_TTL_MS + 1000);
    const declined = await planOf('prepare_unpublish');
    await f.owner.get(`/approvals/${declined}`);
    expect((await f.owner.post(`/approvals/${declined}/decline`)).status).toBe(303);
    const done = await planOf('prepare_publish');
    expect(await approve(f.owner, done)).toBe(303);
    expect((await s.call(t, 'confirm_pending_action', { planId: done })).ok).toBe(true);
    const approved = await planOf('prepare_search_visibility', { visible: false });
    expect(await approve(f.owner, approved)).toBe(303);

    let page = await f.owner.get('/approvals');
    expect(page.html).toContain('id="auto-refresh"'); // an approved plan waits for the assistant
    const row = (id: string) => new RegExp(`data-plan="${id}" data-outcome="([a-z_]+)"`).exec(page.html)?.[1];
    expect(row(expired)).toBe('expired');
    expect(row(declined)).toBe('declined');
    expect(row(done)).toBe('carried_out');
    expect(row(approved)).toBe('approved');
    expect(page.html).toContain('Through “Demo assistant (all scopes)”');

    // Once nothing waits any more, it stops reloading; a new plan makes it reload again.
    time.advance(PLAN_TTL_MS + 1000);
    page = await f.owner.get('/approvals');
    expect(row(approved)).toBe('expired');
    expect(page.html).not.toContain('id="auto-refresh"');
    const waiting = await planOf('prepare_unpublish');
    page = await f.owner.get('/approvals');
    expect(page.html).toContain('id="auto-refresh"');
    expect(page.html).toContain(`href="/approvals/${waiting}"`);
    expect(row(waiting)).toBeUndefined();
  });
});
