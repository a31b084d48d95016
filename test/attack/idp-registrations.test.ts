// Attack suite, anonymous client registrations at the development identity provider (`npm start` runs
// it): dynamic registration (RFC 7591) is open to anyone, so it is limited per sender (through the
// app's rate limits, Redis when configured), capped in total, and registrations no person used within
// 30 days are purged by a retention job. Every refusal stores nothing.
import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { REGISTRATION_WINDOW } from '../../src/auth/oauth/idp-registration.js';
import { UNUSED_CLIENT_DAYS } from '../../src/auth/oauth/idp-store.js';
import { oidcModels } from '../../src/db/schema.js';
import { RETENTION } from '../../src/ops/retention.js';
import { loadConfig } from '../../src/config.js';
import { uniqueTag } from '../helpers/db.js';
import { signInAndConsent } from '../helpers/oauth.js';
import { type TestServer, freePort, startTestServer } from '../helpers/server.js';

let s: TestServer;
let idp: Idp;
const agents: Agent[] = [];
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  // As `sitegate serve --idp` runs it: the app's own limits (memory, or Redis on the PostgreSQL run).
  idp = await startIdp({ db: db(), audience: s.mcpUrl, jwks: await signingKeys(), limits: s.sg.deps.limits });
});
afterAll(async () => {
  await idp?.close();
  await s?.close();
  await Promise.all(agents.map((a) => a.close()));
});

function db() {
  return s.sg.deps.services.db;
}

const clients = async () =>
  (await db().select({ n: count() }).from(oidcModels).where(eq(oidcModels.model, 'Client')))[0]!.n;

/** A registrar at one loopback source address. */
function registrarAt(address: string, issuer = () => idp.issuer) {
  const dispatcher = new Agent({ localAddress: address });
  agents.push(dispatcher);
  return async (name = `Registration ${uniqueTag()}`, route = '/reg') => {
    const res = await undiciFetch(`${issuer()}${route}`, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const body = (await res.json()) as Record<string, string>;
    return { status: res.status, clientId: body.client_id, error: body.error };
  };
}

describe('dynamic client registration', () => {
  it('is limited per sender: past the limit it is refused and nothing more is stored', async () => {
    const register = registrarAt('127.0.41.1');
    const before = await clients();
    for (let i = 0; i < REGISTRATION_WINDOW.points; i += 1) expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused).toMatchObject({ status: 429, error: 'rate_limited' });
    // The spellings the provider's router also takes for its registration route.
    for (const route of ['/reg/', '/REG', '/Reg/?x=1']) {
      expect((await register(undefined, route)).status, route).toBe(429);
    }
    expect(await clients()).toBe(before + REGISTRATION_WINDOW.points);
    // Another sender still registers: the limit is per sender, not the provider's.
    expect((await registrarAt('127.0.41.2')()).status).toBe(201);
  });

  it('is capped in total: at the cap a registration is refused and nothing is stored', async () => {
    const cap = (await clients()) + 2;
    const port = await freePort();
    const capped = await startIdp({
      db: db(),
      audience: s.mcpUrl,
      jwks: await signingKeys(),
      port,
      maxClients: cap,
    });
    try {
      const register = registrarAt('127.0.42.1', () => capped.issuer);
      expect((await register()).status).toBe(201);
      expect((await register()).status).toBe(201);
      const refused = await register();
      expect(refused).toMatchObject({ status: 503, error: 'temporarily_unavailable' });
      expect((await register(undefined, '/REG/')).status).toBe(503);
      expect(await clients()).toBe(cap);
    } finally {
      await capped.close();
    }
  });

  it('registrations no person used within 30 days are purged; used ones are kept', async () => {
    const { owner } = (await s.workspace()).users;
    const register = registrarAt('127.0.43.1');
    const unused = (await register('Never used')).clientId!;
    const used = (await register('Used once')).clientId!;
    // A person signs in and grants `used` access: the provider stores a grant for it.
    const auth = new URL(`${idp.issuer}/auth`);
    const verifier = randomBytes(32).toString('base64url');
    for (const [k, v] of Object.entries({
      client_id: used,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1/callback',
      scope: 'openid site:read',
      resource: s.mcpUrl,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      auth.searchParams.set(k, v);
    expect(await signInAndConsent(auth, owner.email, owner.password)).toBeTypeOf('string');

    const job = RETENTION.find((r) => r.name === 'idp-clients')!;
    const exists = async (id: string) =>
      (
        await db()
          .select({ n: count() })
          .from(oidcModels)
          .where(and(eq(oidcModels.model, 'Client'), eq(oidcModels.id, id)))
      )[0]!.n === 1;
    const day = 86_400_000;
    await job.run(db(), new Date(Date.now() + (UNUSED_CLIENT_DAYS - 1) * day), loadConfig({}));
    expect(await exists(unused)).toBe(true);
    expect(await exists(used)).toBe(true);
    await job.run(db(), new Date(Date.now() + (UNUSED_CLIENT_DAYS + 1) * day), loadConfig({}));
    expect(await exists(unused)).toBe(false);
    expect(await exists(used)).toBe(true);
  });
});
