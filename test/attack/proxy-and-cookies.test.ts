// Attack suite, behind a TLS-terminating proxy: with an https BASE_URL the owner
// cookies are `Secure` and `__Host-` prefixed even though the request reaching Sitegate is plain http.
// X-Forwarded-For is believed only from the proxies TRUST_PROXY names (addresses, CIDR ranges): a
// trusted proxy's client gets its own per-address limit, a client-written entry to the left of the
// proxy's changes nothing, and a peer not in the list that writes the header is limited as itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { clientFrom, compileTrust, parseTrustProxy } from '../../src/kernel/trusted-proxies.js';
import { testClock } from '../plans/rail.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type Visitor, fillAndSend, visitor, writesOf } from '../visitors/visitor.js';

describe('cookies with an https BASE_URL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: false, env: { BASE_URL: 'https://sitegate.example' } });
  });
  afterAll(() => s?.close());

  it('the CSRF and session cookies are Secure, HttpOnly and __Host- prefixed', async () => {
    const demo = await s.seed();
    const page = await fetch(`${s.url}/login`);
    const pre = page.headers.getSetCookie();
    expect(pre).toHaveLength(1);
    expect(pre[0]).toMatch(/^__Host-sg_csrf=[^;]+;/);
    expect(pre[0]).toMatch(/; Secure/);
    expect(pre[0]).toMatch(/; Path=\//);
    expect(pre[0]).not.toMatch(/Domain=/i);

    const res = await fetch(`${s.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `__Host-sg_csrf=${/^__Host-sg_csrf=([^;]+)/.exec(pre[0]!)![1]}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-proto': 'https',
      },
      body: new URLSearchParams({
        _csrf: /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]!,
        email: demo.users.owner.email,
        password: demo.users.owner.password,
        next: '/',
      }),
    });
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.includes('sg_session'));
    expect(session).toMatch(/^__Host-sg_session=[^;]+;/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
    // The unprefixed name is not accepted in its place (a sibling could have set that one).
    const plain = await fetch(`${s.url}/settings/advanced/developers`, {
      redirect: 'manual',
      headers: { cookie: `sg_session=${/^__Host-sg_session=([^;]+)/.exec(session!)![1]}` },
    });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toMatch(/^\/login/);
  });
});

describe('TRUST_PROXY and the per-address form limit', () => {
  const time = testClock();
  let s: TestServer;
  // Linux routes all of 127.0.0.0/8 to lo: each visitor below connects from its own source address.
  const proxy = visitor({ address: '127.0.0.2' }); // named by address
  const ranged = visitor({ address: '127.0.10.5' }); // inside a trusted range
  const direct = visitor({ address: '127.0.0.3' }); // reaches the backend itself: in no list
  beforeAll(async () => {
    s = await startTestServer({
      seed: false,
      clock: time.clock,
      env: {
        FORM_LIMIT_PER_ADDRESS: '2',
        FORM_LIMIT_PER_WEBSITE: '50',
        TRUST_PROXY: '127.0.0.2, 127.0.10.0/24',
      },
    });
  });
  afterAll(async () => {
    await Promise.all([proxy, ranged, direct].map((v) => v.close()));
    await s?.close();
  });

  const good = { name: 'Ada Visitor', email: 'ada@example.com', phone: '', message: 'Open on Sunday?' };
  const send = (v: Visitor, site: string, xff: string) =>
    fillAndSend(
      {
        ...v,
        get: (url: string) => v.get(url, { 'x-forwarded-for': xff }),
        post: (url: string, form: Record<string, string>) => v.post(url, form, { 'x-forwarded-for': xff }),
      },
      s.url,
      `${s.url}/sites/${site}/contact`,
      '/_forms/contact',
      good,
      () => time.advance(5_000),
    );

  it('through a trusted proxy each real client has its own limit; a spoofed left entry changes nothing', async () => {
    const site = (await s.seed()).websites.main;
    const db = s.sg.deps.services.db;
    expect((await send(proxy, site, '198.51.100.1')).status).toBe(303);
    expect((await send(proxy, site, '203.0.113.9, 198.51.100.1')).status).toBe(303);
    const before = await writesOf(db, site);
    expect((await send(proxy, site, '10.1.2.3, 198.51.100.1')).status).toBe(429);
    expect(await writesOf(db, site)).toEqual(before);
    // Another client behind the same proxy is not limited by the first one's messages, and a proxy
    // inside a trusted range forwards the same client: one limit, whichever proxy it came through.
    expect((await send(proxy, site, '198.51.100.2')).status).toBe(303);
    expect((await send(ranged, site, '198.51.100.2')).status).toBe(303);
    expect((await send(ranged, site, '198.51.100.2')).status).toBe(429);
    expect(await writesOf(db, site)).not.toEqual(before);
  });

  it('a peer not in the list cannot choose its address: every header it writes is its own address', async () => {
    const site = (await s.seed()).websites.main;
    const db = s.sg.deps.services.db;
    expect((await send(direct, site, '198.51.100.31')).status).toBe(303);
    // It claims to be a trusted proxy forwarding a fresh client each time: still one limit, its own.
    expect((await send(direct, site, '198.51.100.32, 127.0.0.2')).status).toBe(303);
    const before = await writesOf(db, site);
    expect((await send(direct, site, '198.51.100.33')).status).toBe(429);
    expect(await writesOf(db, site)).toEqual(before);
  });

  it('walks from the right past trusted hops only: addresses, CIDR ranges, IPv6, mapped IPv4', () => {
    const trust = compileTrust(parseTrustProxy('10.0.0.0/8, 192.0.2.7, fd00::/8, ::1').list);
    // Untrusted peer: the header is not read at all.
    expect(clientFrom('198.51.100.9', '203.0.113.1', trust)).toBe('198.51.100.9');
    // Trusted peer: its right-most entry, unless that is a trusted hop too (two proxies in a row).
    expect(clientFrom('192.0.2.7', '1.1.1.1, 198.51.100.7', trust)).toBe('198.51.100.7');
    expect(clientFrom('10.2.3.4', '1.1.1.1, 198.51.100.7, 10.9.9.9', trust)).toBe('198.51.100.7');
    // A client inside no trusted range stops the walk: what it wrote to its left is never read.
    expect(clientFrom('10.2.3.4', '10.0.0.1, 198.51.100.7', trust)).toBe('198.51.100.7');
    // IPv6 proxies and clients, and one spelling for an IPv4 client however it arrives.
    expect(clientFrom('fd12::1', '2001:db8::42', trust)).toBe('2001:db8::42');
    expect(clientFrom('::1', '2001:db8::42', trust)).toBe('2001:db8::42');
    expect(clientFrom('::ffff:10.0.0.5', '198.51.100.8', trust)).toBe('198.51.100.8');
    expect(clientFrom('192.0.2.7', '::ffff:198.51.100.7', trust)).toBe('198.51.100.7');
    expect(clientFrom('2001:db8::1', '198.51.100.8', trust)).toBe('2001:db8::1');
    // Nothing that parses: the nearest trusted hop stands in for the client.
    expect(clientFrom('192.0.2.7', '198.51.100.7, not-an-address', trust)).toBe('192.0.2.7');
    expect(clientFrom('192.0.2.7', undefined, trust)).toBe('192.0.2.7');
  });

  it('TRUST_PROXY: off by default, 1 means loopback only, a bad entry refuses to start', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toEqual([]);
    const legacy = loadConfig({ TRUST_PROXY: '1' });
    expect(legacy.trustProxy).toEqual(['loopback']);
    expect(legacy.trustProxyLegacy).toBe(true);
    const trust = compileTrust(legacy.trustProxy);
    expect([trust('127.0.0.1'), trust('::1'), trust('10.0.0.1'), trust('192.168.1.1')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: invalid range/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY: invalid IP address/);
  });
});
