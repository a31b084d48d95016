// Attack suite, behind a TLS-terminating proxy (issue 11 item 9): with an https BASE_URL the owner
// cookies are `Secure` and `__Host-` prefixed even though the request reaching Sitegate is plain http;
// with TRUST_PROXY=1 the published site's per-address form limit counts the real client (the proxy's
// right-most X-Forwarded-For entry), and a client-written entry to its left changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardedFor } from '../../src/web/client-address.js';
import { testClock } from '../plans/rail.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { fillAndSend, visitor, writesOf } from '../visitors/visitor.js';

describe('cookies with an https BASE_URL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { BASE_URL: 'https://sitegate.example' } });
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
  let trusted: TestServer;
  let direct: TestServer;
  const v = visitor({ address: '127.0.0.1' });
  beforeAll(async () => {
    const env = { FORM_LIMIT_PER_ADDRESS: '2', FORM_LIMIT_PER_WEBSITE: '50' };
    trusted = await startTestServer({ clock: time.clock, env: { ...env, TRUST_PROXY: '1' } });
    direct = await startTestServer({ clock: time.clock, env });
  });
  afterAll(async () => {
    await v.close();
    await trusted?.close();
    await direct?.close();
  });

  const good = { name: 'Ada Visitor', email: 'ada@example.com', phone: '', message: 'Open on Sunday?' };
  const send = (s: TestServer, site: string, xff: string) =>
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

  it('with TRUST_PROXY=1 each real client has its own limit; a spoofed left entry changes nothing', async () => {
    const site = (await trusted.seed()).websites.main;
    const db = trusted.sg.deps.services.db;
    expect((await send(trusted, site, '198.51.100.1')).status).toBe(303);
    expect((await send(trusted, site, '203.0.113.9, 198.51.100.1')).status).toBe(303);
    const before = await writesOf(db, site);
    expect((await send(trusted, site, '10.1.2.3, 198.51.100.1')).status).toBe(429);
    expect(await writesOf(db, site)).toEqual(before);
    // Another client behind the same proxy is not limited by the first one's messages.
    expect((await send(trusted, site, '198.51.100.2')).status).toBe(303);
  });

  it('without it, X-Forwarded-For is the client talking and is ignored', async () => {
    const site = (await direct.seed()).websites.main;
    expect((await send(direct, site, '198.51.100.1')).status).toBe(303);
    expect((await send(direct, site, '198.51.100.2')).status).toBe(303);
    expect((await send(direct, site, '198.51.100.3')).status).toBe(429);
  });

  it('reads only the right-most entry, and only an address', () => {
    expect(forwardedFor('1.1.1.1, 198.51.100.7')).toBe('198.51.100.7');
    expect(forwardedFor('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(forwardedFor('198.51.100.7, not-an-address')).toBeNull();
    expect(forwardedFor(undefined)).toBeNull();
  });
});
