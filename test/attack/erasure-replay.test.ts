// Attack suite, round 4: erasure against what a replay keeps. A keyed prepare_grant_access for a
// customer's address stores its answer (the plan's summary names the address) for a day; after the
// owner erased that person on the Customers page, the replay still told the address, with a pending
// status and an approval link that answered 404. Now the erasure reaches every place the site keeps an
// address: the records, the outbox (the owner's notice of the visitor's message, the invitation
// mail), the plans, the invitation not yet accepted, and the stored answers of keyed calls, which are
// erased: their replay is refused (not_found) and the key stays spent, so nothing runs again. A scan of
// every text column of every table then finds the address nowhere. Another website's stored answers
// are its own and stay.
import http from 'node:http';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, invitations, pendingActions } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { uniqueTag } from '../helpers/db.js';
import { columnsHolding } from '../helpers/scan.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';
import { approve } from '../plans/rail.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());
const db = () => s.sg.deps.services.db;

/** A visitor's assistant sends the business a message: the person becomes a customer (a lead). */
function messageFrom(d: Demo, email: string, address: string): Promise<number> {
  const u = new URL(s.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'send_message',
      arguments: { name: 'Robin Private', email, message: 'Please call me back about a cake.' },
    },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        localAddress: address,
        path: `/sites/${d.websites.main}/_api/mcp`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'user-agent': 'ErasureAssistant/1.0',
        },
      },
      (res) => {
        let out = '';
        res.on('data', (c: Buffer) => {
          out += c.toString();
        });
        res.on('end', () => {
          const reply = JSON.parse(out) as { result?: { isError?: boolean } };
          resolve(reply.result && !reply.result.isError ? res.statusCode! : 0);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function ownerErases(d: Demo, email: string) {
  const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
  const page = `/dashboard/sites/${d.websites.main}/customers`;
  await web.get(page);
  const r = await web.post(`${page}/erase`, { email });
  expect(r.status).toBe(303);
  return web;
}

const plansOf = async (websiteId: string) =>
  Number(
    (await db().select({ n: count() }).from(pendingActions).where(eq(pendingActions.websiteId, websiteId)))[0]
      ?.n ?? 0,
  );

describe('erasure reaches the stored answers of keyed calls', () => {
  it('a keyed invitation for a customer, then erasure: the replay is refused without the address, which is nowhere', async () => {
    const d = await s.seed();
    const email = `erasure-${uniqueTag()}@example.com`.toLowerCase();
    expect(await messageFrom(d, email, '127.0.83.1')).toBe(200);

    // A plan still pending, and one the owner approved and the connection carried out (an invitation).
    const pending = { email, level: 'viewer', idempotencyKey: `pending-${uniqueTag()}` };
    const first = await s.call(d.tokens.all, 'prepare_grant_access', pending);
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.data!.summary).toContain(email);
    const carried = { email: email.toUpperCase(), level: 'editor', idempotencyKey: `carried-${uniqueTag()}` };
    const second = await s.call(d.tokens.all, 'prepare_grant_access', carried);
    expect(second.ok, JSON.stringify(second.error)).toBe(true);
    const owner = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    expect(await approve(owner, second.data!.planId)).toBe(303);
    const done = await s.call(d.tokens.all, 'confirm_pending_action', { planId: second.data!.planId });
    expect(done.ok, JSON.stringify(done.error)).toBe(true);
    const held = await columnsHolding(db(), email);
    expect(held).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^idempotency_keys\.result: 2$/),
        expect.stringMatching(/^invitations\.email: 1$/),
        expect.stringMatching(/^leads\.email: 1$/),
      ]),
    );

    await ownerErases(d, email);

    for (const args of [pending, carried]) {
      const replay = await s.call(d.tokens.all, 'prepare_grant_access', args);
      expect(replay.ok).toBe(false);
      expect(replay.error?.code).toBe('not_found');
      expect(replay.error?.message).toContain('erased');
      expect(JSON.stringify(replay).toLowerCase()).not.toContain(email);
    }
    // The key stays spent: other arguments are a conflict, and no plan is made again.
    const plans = await plansOf(d.websites.main);
    const other = await s.call(d.tokens.all, 'prepare_grant_access', { ...pending, level: 'editor' });
    expect(other.error?.code).toBe('idempotency_conflict');
    expect(await plansOf(d.websites.main)).toBe(plans);
    // The plan the first answer pointed to is gone, and so is the invitation.
    expect((await owner.get(`/approvals/${first.data!.planId}`)).status).toBe(404);
    const invited = await db().select().from(invitations).where(eq(invitations.websiteId, d.websites.main));
    expect(invited.map((i) => i.email.toLowerCase())).not.toContain(email);
    expect(invited.length).toBeGreaterThan(0); // the demo's own invitation stays

    expect(await columnsHolding(db(), email)).toEqual([]);
    const [line] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, d.websites.main), eq(activity.tool, 'erase_personal_data')));
    expect(line!.summary).toContain('1 invitation withdrawn');
    expect(line!.summary).toContain('2 stored answers erased');
    expect(line!.summary.toLowerCase()).not.toContain('erasure-');
  });

  it("another website's stored answer for the same address is its own and stays", async () => {
    const d = await s.seed();
    const email = `elsewhere-${uniqueTag()}@example.com`.toLowerCase();
    const here = { email, level: 'viewer', idempotencyKey: `here-${uniqueTag()}` };
    const there = {
      websiteId: d.websites.events,
      email,
      level: 'viewer',
      idempotencyKey: `there-${uniqueTag()}`,
    };
    expect((await s.call(d.tokens.all, 'prepare_grant_access', here)).ok).toBe(true);
    const firstThere = await s.call(d.tokens.workspace, 'prepare_grant_access', there);
    expect(firstThere.ok, JSON.stringify(firstThere.error)).toBe(true);

    await ownerErases(d, email);

    expect((await s.call(d.tokens.all, 'prepare_grant_access', here)).error?.code).toBe('not_found');
    const replayThere = await s.call(d.tokens.workspace, 'prepare_grant_access', there);
    expect(replayThere.data).toEqual(firstThere.data);
  });
});
