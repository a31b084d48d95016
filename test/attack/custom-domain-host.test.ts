// Attack suite, a customer's domain as a second front door: a host other than BASE_URL's answers only
// as the published site of the verified domain it names. The sign-in page, the owner pages, /api/mcp,
// /v1/, the OAuth metadata, the operator API and the development identity provider are 404 there, for
// a verified domain whose site is not published (the default), an unknown name pointed at the service,
// and the published site's own domain alike; no answer carries a cookie, and nothing is written. The
// published site itself is still served on its domain.
import http from 'node:http';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { domains, oidcModels, pairings, webSessions } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const ADMIN_TOKEN = 'admin-token-for-host-tests-0123456789';
let s: TestServer;
let idp: Idp;
beforeAll(async () => {
  s = await startTestServer({
    seed: false,
    env: { SITEGATE_ADMIN_TOKEN: ADMIN_TOKEN, METRICS_TOKEN: ADMIN_TOKEN },
  });
  idp = await startIdp({ db: (await testDatabase()).db, audience: s.mcpUrl, jwks: await signingKeys() });
});
afterAll(async () => {
  await s?.close();
  await idp?.close();
});

const db = () => s.sg.deps.services.db;

type Answer = { status: number; setCookie: string[]; body: string };

/** One request to `origin` with an explicit Host header (a domain pointed at this machine). */
function viaHost(
  origin: string,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path, method, headers: { ...headers, host } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            setCookie: [res.headers['set-cookie'] ?? []].flat(),
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What a refused request could have written. */
async function writes() {
  const [sessions] = await db().select({ n: count() }).from(webSessions);
  const [pairs] = await db().select({ n: count() }).from(pairings);
  const [idpRows] = await db().select({ n: count() }).from(oidcModels);
  return { sessions: sessions!.n, pairings: pairs!.n, idp: idpRows!.n };
}

/** A CSRF cookie and token from the real host, so a form post on the other host is otherwise valid. */
async function realLoginForm() {
  const page = await fetch(`${s.url}/login`);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]!;
  return { cookie, csrf };
}

describe('a host other than BASE_URL’s', () => {
  it('serves no sign-in, owner, MCP, pairing, OAuth or operator route, sets no cookie and writes nothing', async () => {
    const demo = await s.seed();
    const ws = await s.workspace();
    // A verified domain of a site that is not published (new sites are drafts).
    const unpublished = `shop-${uniqueTag().toLowerCase()}.example`;
    await db()
      .insert(domains)
      .values({
        id: newId('dom'),
        websiteId: ws.websites.main,
        hostname: unpublished,
        status: 'verified',
        verificationToken: 'x'.repeat(24),
        isPrimary: true,
        verifiedAt: new Date(),
      });
    const [published] = await db()
      .select({ hostname: domains.hostname })
      .from(domains)
      .where(eq(domains.websiteId, demo.websites.main));
    const hosts = [unpublished, `unknown-${uniqueTag().toLowerCase()}.example`, published!.hostname];

    const { cookie, csrf } = await realLoginForm();
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const formHeaders = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const routes: Array<[string, string, Record<string, string>?, string?]> = [
      ['GET', '/login'],
      [
        'POST',
        '/login',
        formHeaders,
        form({ _csrf: csrf, email: ws.users.owner.email, password: ws.users.owner.password, next: '/' }),
      ],
      ['POST', '/logout', formHeaders, form({ _csrf: csrf })],
      ['GET', '/settings/advanced/developers'],
      ['GET', '/dashboard/connect'],
      ['GET', `/dashboard/sites/${ws.websites.main}`],
      ['GET', '/approvals'],
      ['GET', `/editor/${ws.websites.main}`],
      ['GET', `/sites/${demo.websites.main}/`],
      [
        'POST',
        '/api/mcp',
        { ...json, authorization: `Bearer ${ws.tokens.all}` },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      ],
      ['GET', '/api/mcp'],
      ['GET', '/.well-known/oauth-protected-resource'],
      ['GET', '/.well-known/oauth-protected-resource/api/mcp'],
      [
        'POST',
        '/v1/cli/pair/start',
        json,
        JSON.stringify({ scopes: ['site:read'], clientName: 'host test' }),
      ],
      ['POST', '/v1/cli/pair/poll', json, JSON.stringify({ deviceCode: 'x' })],
      ['GET', '/v1/content/site'],
      ['GET', '/admin/stats', { authorization: `Bearer ${ADMIN_TOKEN}` }],
      ['GET', '/schemas/portable-site-v1.json'],
    ];
    const before = await writes();
    for (const host of hosts) {
      for (const [method, path, headers, body] of routes) {
        const r = await viaHost(s.url, host, method, path, headers, body);
        expect(r.status, `${method} ${path} on ${host}`).toBe(404);
        expect(r.setCookie, `${method} ${path} on ${host}`).toEqual([]);
        expect(r.body).not.toMatch(/<form[^>]*login|_csrf/);
      }
    }
    expect(await writes()).toEqual(before);

    // The same routes on the service's own host still answer (the refusals above are the host's).
    expect((await fetch(`${s.url}/login`)).status).toBe(200);
    expect((await fetch(`${s.url}/.well-known/oauth-protected-resource`)).status).toBe(200);
  });

  it('the published site is still served on its domain, without a cookie even for a signed-in owner', async () => {
    const demo = await s.seed();
    const [dom] = await db()
      .select({ hostname: domains.hostname })
      .from(domains)
      .where(eq(domains.websiteId, demo.websites.main));
    // A real session cookie of the owner, sent to the customer's domain.
    const { cookie, csrf } = await realLoginForm();
    const signed = await fetch(`${s.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: csrf,
        email: demo.users.owner.email,
        password: demo.users.owner.password,
        next: '/',
      }),
    });
    expect(signed.status).toBe(303);
    const session = signed.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    for (const path of ['/', '/about', '/contact', '/book']) {
      const r = await viaHost(s.url, dom!.hostname, 'GET', path, { cookie: session });
      expect(r.status, path).toBe(200);
      expect(r.setCookie, path).toEqual([]);
    }
    expect((await viaHost(s.url, dom!.hostname, 'GET', '/')).body).toContain('Fresh bread every morning');
  });

  it('the development identity provider answers only on its issuer’s host', async () => {
    const before = await writes();
    const host = `shop-${uniqueTag().toLowerCase()}.example`;
    for (const [method, path, body] of [
      ['GET', '/.well-known/openid-configuration'],
      ['GET', '/jwks'],
      ['GET', '/auth?client_id=x&response_type=code'],
      [
        'POST',
        '/reg',
        JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }),
      ],
    ] as const) {
      const r = await viaHost(idp.issuer, host, method, path, { 'content-type': 'application/json' }, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.setCookie).toEqual([]);
    }
    expect(await writes()).toEqual(before);
    expect((await fetch(`${idp.issuer}/.well-known/openid-configuration`)).status).toBe(200);
  });
});
