// OAuth out of the box (R-AUTH-1): the development identity provider keeps its signing keys and
// client registrations in Sitegate's database, so after a restart an access token issued before it
// still verifies and the refresh token still works. The 401 challenge carries a scope; the provider
// advertises Client ID Metadata Documents; a pending sign-in shows the registered client_name and the
// person's email.
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, startIdp } from '../../src/auth/oauth/idp.js';
import { pairings } from '../../src/db/schema.js';
import { SCOPES } from '../../src/kernel/scopes.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { signInAndConsent } from '../helpers/oauth.js';
import { type TestServer, freePort, postMcp, rawCallCode, startTestServer } from '../helpers/server.js';

let s: TestServer;
let idp: Idp;
let idpPort: number;
const startOurIdp = async () =>
  startIdp({ db: (await testDatabase()).db, audience: s.mcpUrl, port: idpPort });

beforeAll(async () => {
  idpPort = await freePort();
  s = await startTestServer({ env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` } });
  idp = await startOurIdp();
});
afterAll(async () => {
  await s?.close();
  await idp?.close();
});

const json = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('the development identity provider across a restart', () => {
  it('keeps its keys and registrations: old tokens verify, the refresh token works', async () => {
    const discovery = (await json(`${idp.issuer}/.well-known/openid-configuration`)).body;
    expect(discovery.client_id_metadata_document_supported).toBe(true);
    const jwksBefore = (await json(discovery.jwks_uri)).body;

    const name = `Persistence check ${uniqueTag()}`;
    const reg = await json(discovery.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status).toBe(201);
    const clientId = reg.body.client_id as string;

    const verifier = randomBytes(32).toString('base64url');
    const auth = new URL(discovery.authorization_endpoint);
    const redirect = `http://127.0.0.1:${await freePort()}/callback`;
    for (const [k, v] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirect,
      scope: 'openid offline_access site:read content:write',
      prompt: 'consent',
      resource: s.mcpUrl,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      auth.searchParams.set(k, v);
    const code = await signInAndConsent(auth, s.demo.users.owner.email, s.demo.users.owner.password);
    const tokens = await json(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        client_id: clientId,
        code_verifier: verifier,
        resource: s.mcpUrl,
      }),
    });
    expect(tokens.status).toBe(200);
    const { access_token: access, refresh_token: refresh } = tokens.body;
    expect(refresh).toBeTypeOf('string');

    // Verified and unbound; the owner will see the client by its registered name and the person by email.
    expect((await rawCallCode(s.mcpUrl, access)).code).toBe('not_connected');
    const [pending] = await s.sg.deps.services.db
      .select()
      .from(pairings)
      .where(eq(pairings.oauthClientId, clientId));
    expect(pending).toMatchObject({ clientName: name, oauthEmail: s.demo.users.owner.email });

    await idp.close();
    idp = await startOurIdp();

    expect((await json(`${idp.issuer}/jwks`)).body).toEqual(jwksBefore);
    // The token issued before the restart still verifies at the MCP edge (same keys).
    expect((await rawCallCode(s.mcpUrl, access)).code).toBe('not_connected');
    // The registration and the grant survived: the refresh token is redeemed by the new process.
    const refreshed = await json(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: clientId,
        resource: s.mcpUrl,
      }),
    });
    expect(refreshed.status).toBe(200);
    expect((await rawCallCode(s.mcpUrl, refreshed.body.access_token)).code).toBe('not_connected');
  });
});

describe('the 401 challenge', () => {
  it('names the metadata and the scopes to ask for (RFC 6750 §3, RFC 9728 §5.1)', async () => {
    const res = await postMcp(s.mcpUrl, 'not-a-token');
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${s.url}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(challenge).toContain(`scope="${SCOPES.join(' ')}"`);
    const meta = (await json(`${s.url}/.well-known/oauth-protected-resource/api/mcp`)).body;
    expect(meta.authorization_servers).toEqual([idp.issuer]);
  });
});
