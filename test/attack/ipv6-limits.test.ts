// Attack suite, limits keyed by client address against IPv6 senders: one host holds a whole /64 and may
// pick a new address for every request, so each limit counts an IPv6 client by its /64
// (src/kernel/address-key.ts). Guesses from many addresses of one /64 run into one limit at /login,
// at `POST /v1/cli/pair/start` and in the sign-in function the development identity provider uses;
// the right password after the limit opens no session, and nothing more is written. Client addresses
// come from a TLS proxy's X-Forwarded-For (TRUST_PROXY=1): a test cannot bind many IPv6 source
// addresses of one /64 without changing the machine's network.
import { randomInt } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairings, users, webSessions } from '../../src/db/schema.js';
import { SIGN_IN_LIMITS, signIn } from '../../src/domain/users/sign-in.js';
import { addressKey } from '../../src/kernel/address-key.js';
import { signInLimiter } from '../../src/limits/rate-limits.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false, env: { TRUST_PROXY: '1' } });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

/** A /64 of the documentation prefix no other test in this run uses, and its n-th address. */
function subnet() {
  const [a, b] = [randomInt(0x10000).toString(16), randomInt(0x10000).toString(16)];
  return (n: number) =>
    `2001:db8:${a}:${b}:${((n * 7919) % 0x10000).toString(16)}:${(n % 0x10000).toString(16)}:0:${(n % 0xffff) + 1}`;
}

const sessionsOf = async (email: string) =>
  (
    await db()
      .select({ n: count() })
      .from(webSessions)
      .innerJoin(users, eq(users.id, webSessions.userId))
      .where(eq(users.email, email))
  )[0]!.n;

/** One browser whose requests reach Sitegate through the proxy from the given address. */
async function loginForm() {
  const page = await fetch(`${s.url}/login`);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]!;
  return async (from: string, email: string, password: string) => {
    const res = await fetch(`${s.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': from,
      },
      body: new URLSearchParams({ _csrf: csrf, email, password, next: '/' }),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

describe('IPv6 senders are counted by their /64', () => {
  it('the key: every address of one /64 is one sender; IPv4 and its mapped spelling are one', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).not.toBe(addressKey('203.0.113.10'));
  });

  it('/login: guesses from many addresses of one /64 hit the limit; the right password then opens no session', async () => {
    const { owner } = (await s.seed()).users;
    const at = subnet();
    const post = await loginForm();
    const points = SIGN_IN_LIMITS.perAccountAndAddress.points;
    for (let i = 0; i < points; i += 1) expect(await post(at(i), owner.email, `wrong-${i}`)).toBe(401);
    expect(await post(at(points), owner.email, 'one-more')).toBe(429);
    expect(await post(at(points + 1), owner.email, owner.password)).toBe(429);
    expect(await sessionsOf(owner.email)).toBe(0);
    // Another /64 is another sender: the owner there signs in at once.
    expect(await post(subnet()(0), owner.email, owner.password)).toBe(303);
    expect(await sessionsOf(owner.email)).toBe(1);
  });

  it('/login: spraying many accounts from many addresses of one /64 is stopped by the per-address limit', async () => {
    const demo = await s.seed();
    const at = subnet();
    const post = await loginForm();
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress.points; i += 1) {
      expect(await post(at(i), `nobody-${i}@spray.example`, 'guess')).toBe(401);
    }
    const { viewer } = demo.users;
    expect(await post(at(1_000), viewer.email, viewer.password)).toBe(429);
    expect(await sessionsOf(viewer.email)).toBe(0);
  });

  it('POST /v1/cli/pair/start: one /64 shares one allowance, and a refused start writes nothing', async () => {
    const clientName = `v6 pairing ${uniqueTag()}`;
    const at = subnet();
    const start = (from: string) =>
      fetch(`${s.url}/v1/cli/pair/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ scopes: ['site:read'], clientName }),
      });
    const stored = async () =>
      (await db().select({ n: count() }).from(pairings).where(eq(pairings.clientName, clientName)))[0]!.n;
    let allowed = 0;
    let refused = 0;
    // The bucket allows 30 a minute: 40 addresses of one /64 must run out.
    for (let i = 0; i < 40; i += 1) {
      const res = await start(at(i));
      await res.arrayBuffer();
      if (res.status === 201) allowed += 1;
      else {
        expect(res.status).toBe(429);
        refused += 1;
      }
    }
    expect(allowed).toBe(30);
    expect(refused).toBe(10);
    expect(await stored()).toBe(30);
    // Another /64 still starts.
    expect((await start(subnet()(0))).status).toBe(201);
    expect(await stored()).toBe(31);
  });

  it('the sign-in function behind the identity provider counts one /64 once', async () => {
    const { owner } = (await s.seed()).users;
    const at = subnet();
    const deps = { db: db(), limit: signInLimiter(s.sg.deps.limits) };
    const points = SIGN_IN_LIMITS.perAccountAndAddress.points;
    for (let i = 0; i < points; i += 1) {
      const r = await signIn(deps, { email: owner.email, password: `wrong-${i}`, address: at(i) });
      expect(r).toEqual({ ok: false, reason: 'wrong_credentials' });
    }
    const right = await signIn(deps, { email: owner.email, password: owner.password, address: at(99) });
    expect(right).toMatchObject({ ok: false, reason: 'rate_limited' });
  });
});
