// Attack suite, sign-in abuse (R-WEB-3): one sign-in function behind /login and the development
// identity provider, limited per (account, client address) and per address. An attacker can neither
// guess (the right password after the limit is refused too) nor lock the owner out (the owner's own
// address has its own count). Different client addresses are real: sockets bound to 127.0.0.x.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { users, webSessions } from '../../src/db/schema.js';
import { SIGN_IN_LIMITS } from '../../src/domain/users/sign-in.js';
import { testDatabase } from '../helpers/db.js';
import { MemoryOAuthProvider } from '../helpers/oauth.js';
import { type TestServer, freePort, startTestServer } from '../helpers/server.js';

let s: TestServer;
let idp: Idp;
const agents: Agent[] = [];
beforeAll(async () => {
  const idpPort = await freePort();
  s = await startTestServer({ seed: false, env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` } });
  idp = await startIdp({
    db: (await testDatabase()).db,
    audience: s.mcpUrl,
    jwks: await signingKeys(),
    port: idpPort,
  });
});
afterAll(async () => {
  await s?.close();
  await idp?.close();
  await Promise.all(agents.map((a) => a.close()));
});

const db = () => s.sg.deps.services.db;
const PER_ACCOUNT = SIGN_IN_LIMITS.perAccountAndAddress.points;

/** A browser at one loopback address: GET /login for the CSRF cookie, then POST the form. */
function browserAt(address: string) {
  const dispatcher = new Agent({ localAddress: address });
  agents.push(dispatcher);
  let cookie = '';
  let csrf = '';
  return async (email: string, password: string): Promise<number> => {
    if (!csrf) {
      const page = await undiciFetch(`${s.url}/login`, { dispatcher });
      cookie = page.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]!;
    }
    const res = await undiciFetch(`${s.url}/login`, {
      dispatcher,
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email, password, next: '/' }).toString(),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

const sessionsOf = async (email: string) =>
  (
    await db()
      .select({ id: webSessions.idHash })
      .from(webSessions)
      .innerJoin(users, eq(users.id, webSessions.userId))
      .where(eq(users.email, email))
  ).length;

describe('/login limits', () => {
  it('an attacker cannot guess past the limit, and cannot lock the owner out', async () => {
    const { owner } = (await s.seed()).users;
    const attacker = browserAt('127.0.0.2');
    for (let i = 0; i < PER_ACCOUNT; i += 1) expect(await attacker(owner.email, `wrong-${i}`)).toBe(401);
    expect(await attacker(owner.email, 'wrong-again')).toBe(429);
    // The right password, from the attacker's address, after the limit: refused, no session.
    expect(await attacker(owner.email, owner.password)).toBe(429);
    expect(await sessionsOf(owner.email)).toBe(0);
    // The owner, from their own address, signs in at once.
    const ownerBrowser = browserAt('127.0.0.3');
    expect(await ownerBrowser(owner.email, owner.password)).toBe(303);
    expect(await sessionsOf(owner.email)).toBe(1);
  });

  it('right passwords do not add up; one address spraying many accounts is stopped', async () => {
    const demo = await s.seed();
    const regular = browserAt('127.0.0.4');
    for (let i = 0; i < PER_ACCOUNT + 2; i += 1)
      expect(await regular(demo.users.editor.email, demo.users.editor.password)).toBe(303);
    const sprayer = browserAt('127.0.0.5');
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress.points; i += 1) {
      expect(await sprayer(`nobody-${i}@spray.example`, 'guess')).toBe(401);
    }
    expect(await sprayer(demo.users.viewer.email, demo.users.viewer.password)).toBe(429);
    expect(await sessionsOf(demo.users.viewer.email)).toBe(0);
  });
});

describe('development identity provider', () => {
  it('wrong passwords, then the right one: refused once the limit is reached', async () => {
    const { owner } = (await s.seed()).users;
    const provider = new MemoryOAuthProvider(50_000 + Math.floor(Math.random() * 10_000));
    const client = new Client({ name: 'sign-in-attack', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider })),
    ).rejects.toThrow(/Unauthorized/i);
    // Follow the authorization URL to the sign-in form, keeping the provider's cookies.
    const jar = new Map<string, string>();
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        jar.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
    };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let url = provider.authorizationUrl!.toString();
    let html = '';
    for (let step = 0; step < 5 && !html.includes('<form'); step += 1) {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
      keep(res);
      const location = res.headers.get('location');
      if (location) url = new URL(location, url).toString();
      else html = await res.text();
    }
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(html)![1]!, url).toString();
    const attempt = async (password: string) => {
      const res = await fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: owner.email, password }),
      });
      // The page's text goes into a failure message: a 400 says what the provider refused.
      const text = await res.text();
      return { status: res.status, says: text.replace(/\s+/g, ' ').slice(0, 400) };
    };
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      const r = await attempt(`wrong-${i}`);
      expect(r.status, r.says).toBe(401);
    }
    const right = await attempt(owner.password);
    expect(right.status, right.says).toBe(429);
  });
});
