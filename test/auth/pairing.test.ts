// Device-code pairing (R-PAIR-1, R-PAIR-2) over real HTTP: start, owner approval on
// /dashboard/connect with unticked scopes, poll statuses, and every refusal with nothing written.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections, pairings } from '../../src/db/schema.js';
import { type StartedPairing, purgePairings } from '../../src/auth/pairing.js';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
// An hour behind the real time. The purge below is global: at a clock a day ahead of the real one it
// deleted every live pairing in the database (on the PostgreSQL once shared by all files, cli.test.ts's
// mid-pair). Spawned servers' clean-up jobs run on the real clock and purge a day after expiry.
let now = new Date(Date.now() - 3_600_000);
const tick = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: () => now, env: { PAIR_INTERVAL_SECONDS: '5' } });
});
afterAll(() => s?.close());

async function start(scopes: string[], clientName = `cli-${Math.random().toString(36).slice(2)}`) {
  const res = await fetch(`${s.url}/v1/cli/pair/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scopes, clientName }),
  });
  expect(res.status).toBe(201);
  return { ...((await res.json()) as StartedPairing), clientName };
}

async function poll(deviceCode: string) {
  const res = await fetch(`${s.url}/v1/cli/pair/poll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ deviceCode }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const rowOf = async (deviceCode: string) =>
  (
    await s.sg.deps.services.db
      .select()
      .from(pairings)
      .where(eq(pairings.deviceCodeHash, sha256Hex(deviceCode)))
  )[0]!;
const connectionsNamed = (name: string) =>
  s.sg.deps.services.db.select().from(connections).where(eq(connections.name, name));

describe('device-code pairing', () => {
  it('happy path: unticked scopes are really absent, token returned exactly once, then 410', async () => {
    const demo = await s.workspace();
    const p = await start(['content:write', 'publish', 'crm:read']);
    expect(p.userCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(p.verificationUri).toBe(`${s.url}/dashboard/connect`);
    expect(p.verificationUriComplete).toContain(encodeURIComponent(p.userCode));
    expect(p.interval).toBe(5);
    expect((await rowOf(p.deviceCode)).deviceCodeHash).not.toContain(p.deviceCode);

    expect(await poll(p.deviceCode)).toEqual({ status: 202, body: { status: 'pending' } });

    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const page = await owner.get(`/dashboard/connect?code=${p.userCode.toLowerCase().replace('-', '')}`);
    expect(page.status).toBe(200);
    const form = /<form[^>]*id="pairing-form".*?<\/form>/s.exec(page.html)![0];
    for (const scope of ['site:read', 'content:write', 'publish', 'crm:read']) {
      expect(form).toContain(`value="${scope}" checked`);
    }
    expect(form).not.toContain('value="workspace:write"');

    // Untick crm:read; also try to sneak in a scope that was never requested.
    const ok = await owner.post('/dashboard/connect/pairing', {
      code: p.userCode,
      websiteId: demo.websites.main,
      reach: 'website',
      scopes: ['content:write', 'publish', 'workspace:write'],
      decision: 'approve',
    });
    expect(ok.status).toBe(200);

    tick(5);
    const first = await poll(p.deviceCode);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'approved', reach: 'website' });
    expect(first.body.scopes).toEqual(['site:read', 'content:write', 'publish']);
    const token = String(first.body.token);
    expect(token).toMatch(/^sg_live_/);

    const [conn] = await connectionsNamed(p.clientName);
    expect(conn!.scopes).toEqual(['site:read', 'content:write', 'publish']);
    expect(conn!.clientKind).toBe('cli');
    expect(conn!.websiteId).toBe(demo.websites.main);
    expect((await s.call(token, 'list_pages')).ok).toBe(true);

    tick(5);
    const second = await poll(p.deviceCode);
    expect(second.status).toBe(410);
    expect(second.body.token).toBeUndefined();
    expect(await connectionsNamed(p.clientName)).toHaveLength(1);
  });

  it('two simultaneous polls after approval: exactly one gets the token', async () => {
    const demo = await s.workspace();
    const p = await start(['content:write']);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const approved = await owner.post('/dashboard/connect/pairing', {
      code: p.userCode,
      websiteId: demo.websites.main,
      scopes: ['content:write'],
      decision: 'approve',
    });
    expect(approved.html).toContain('Approved');
    tick(5);
    const results = await Promise.all([poll(p.deviceCode), poll(p.deviceCode), poll(p.deviceCode)]);
    expect(
      results.filter((r) => r.status === 200),
      JSON.stringify(results),
    ).toHaveLength(1);
    expect(results.filter((r) => r.body.token !== undefined)).toHaveLength(1);
    expect(await connectionsNamed(p.clientName)).toHaveLength(1);
  });

  it('the owner can grant the whole workspace', async () => {
    const demo = await s.workspace();
    const p = await start(['content:write']);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    await owner.post('/dashboard/connect/pairing', {
      code: p.userCode,
      websiteId: demo.websites.main,
      reach: 'workspace',
      scopes: ['content:write'],
      decision: 'approve',
    });
    tick(5);
    const r = await poll(p.deviceCode);
    expect(r.body).toMatchObject({ status: 'approved', reach: 'workspace' });
    const sites = await s.call(String(r.body.token), 'list_sites');
    expect(sites.data?.sites).toHaveLength(2);
  });

  it('decline: poll gets 403 and no connection exists', async () => {
    const demo = await s.workspace();
    const p = await start(['content:write']);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const r = await owner.post('/dashboard/connect/pairing', {
      code: p.userCode,
      websiteId: demo.websites.main,
      decision: 'decline',
    });
    expect(r.status).toBe(200);
    tick(5);
    expect(await poll(p.deviceCode)).toMatchObject({ status: 403, body: { error: 'access_denied' } });
    expect(await connectionsNamed(p.clientName)).toHaveLength(0);
  });

  it('expiry: an expired code cannot be approved or polled', async () => {
    const demo = await s.workspace();
    const p = await start(['content:write']);
    tick(p.expiresIn + 1);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const page = await owner.get(`/dashboard/connect?code=${p.userCode}`);
    expect(page.html).toContain('No pending request with this code');
    const r = await owner.post('/dashboard/connect/pairing', {
      code: p.userCode,
      websiteId: demo.websites.main,
      scopes: ['content:write'],
      decision: 'approve',
    });
    expect(r.status).toBe(404);
    expect((await rowOf(p.deviceCode)).status).toBe('pending');
    expect(await poll(p.deviceCode)).toMatchObject({ status: 410, body: { error: 'expired_token' } });
    expect(await connectionsNamed(p.clientName)).toHaveLength(0);
  });

  it('slow_down: polling faster than the interval gets 429 and a longer interval', async () => {
    const p = await start([]);
    tick(5);
    expect((await poll(p.deviceCode)).status).toBe(202);
    tick(2);
    expect(await poll(p.deviceCode)).toEqual({ status: 429, body: { error: 'slow_down', interval: 10 } });
    tick(6); // less than the new 10 s interval
    expect((await poll(p.deviceCode)).status).toBe(429);
    tick(15);
    expect((await poll(p.deviceCode)).status).toBe(202);
  });

  it.each(['viewer', 'editor'] as const)(
    'a %s cannot approve (owner_only), nothing is granted',
    async (who) => {
      const demo = await s.workspace();
      const p = await start(['content:write']);
      const user = await signIn(s.url, demo.users[who].email, demo.users[who].password);
      const page = await user.get(`/dashboard/connect?code=${p.userCode}`);
      expect(page.html).toContain('Only a website owner');
      const r = await user.post('/dashboard/connect/pairing', {
        code: p.userCode,
        websiteId: demo.websites.main,
        scopes: ['content:write'],
        decision: 'approve',
      });
      expect(r.status).toBe(403);
      expect(r.html).toContain('Only the website owner');
      const row = await rowOf(p.deviceCode);
      expect(row.status).toBe('pending');
      expect(row.scopesGranted).toBeNull();
      tick(5);
      expect((await poll(p.deviceCode)).status).toBe(202);
      expect(await connectionsNamed(p.clientName)).toHaveLength(0);
    },
  );

  it('an unknown device code gets nothing; bad input is refused', async () => {
    expect((await poll('not-a-real-code')).status).toBe(404);
    const res = await fetch(`${s.url}/v1/cli/pair/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['root:everything'], clientName: 'x' }),
    });
    expect(res.status).toBe(400);
  });

  it('user-code guessing is rate-limited per signed-in owner', async () => {
    const demo = await s.workspace();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await owner.get('/dashboard/connect?code=ABCD-EFGH')).status);
    expect(statuses.slice(0, 10).every((x) => x === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('expired pairings are purged a day after expiry, live ones stay', async () => {
    const old = await start(['content:write']);
    tick(600 + 86_400 + 1);
    const fresh = await start(['content:write']);
    await purgePairings(s.sg.deps.services.db, now);
    const rows = await s.sg.deps.services.db
      .select()
      .from(pairings)
      .where(eq(pairings.deviceCodeHash, sha256Hex(old.deviceCode)));
    expect(rows).toHaveLength(0);
    expect((await rowOf(fresh.deviceCode)).status).toBe('pending');
  });
});
