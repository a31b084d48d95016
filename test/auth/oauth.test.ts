// OAuth 2.1 end to end (R-AUTH-1, R-AUTH-3) with the SDK's own OAuth client against
// Sitegate and the real oidc-provider issuer (`sitegate idp`) on 127.0.0.1: RFC 9728 discovery,
// dynamic registration, PKCE, the unbound first call (never dead-ended: it names the connect page),
// binding on /dashboard/connect, then calls with exactly the bound connection's scopes. Forged tokens
// and delegations are refused. The client here is SDK v1 (1.32) on the 2025 wire.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { type JWK, SignJWT, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryToken } from '../../src/auth/delivery.js';
import { delegationKey, delegationSigner } from '../../src/auth/oauth/delegation.js';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import type { JwtEdge } from '../../src/auth/oauth/jwt-edge.js';
import type { Demo } from '../../src/demo/seed.js';
import { connections, pairings } from '../../src/db/schema.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { MemoryOAuthProvider, signInAndConsent } from '../helpers/oauth.js';
import { type TestServer, freePort, postMcp, rawCallCode, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
let idp: Idp;
let jwks: { keys: JWK[] };
let demo: Demo;
let provider: MemoryOAuthProvider;
let accessToken: string;
let clientId: string;
let connectionId: string;
/** The connect code the owner's own unbound sign-in showed. */
let ownCode: string;

beforeAll(async () => {
  // Sitegate listens first (it finds the issuer's keys lazily), so the identity provider's own
  // free port can never be the one Sitegate was given.
  jwks = await signingKeys();
  const idpPort = await freePort();
  s = await startTestServer({ env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` } });
  idp = await startIdp({ db: (await testDatabase()).db, audience: s.mcpUrl, jwks, port: idpPort });
  expect(idp.issuer).toBe(`http://127.0.0.1:${idpPort}`);
  demo = s.demo;
});
afterAll(async () => {
  await s?.close();
  await idp?.close();
});

const mcpStatus = async (token: string) => (await postMcp(s.mcpUrl, token)).status;
/** 'ok', 'not_connected' (verified but unbound) or another refusal code; 401 as a number. */
const callOutcome = async (token: string) => {
  const r = await rawCallCode(s.mcpUrl, token);
  return r.status === 200 ? r.code : r.status;
};

async function connectWith(p: MemoryOAuthProvider) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: p }));
  return client;
}

describe('OAuth 2.1 with the SDK client and the development identity provider', () => {
  it('publishes RFC 9728 metadata naming the issuer', async () => {
    const meta = await (await fetch(`${s.url}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(meta.authorization_servers).toEqual([idp.issuer]);
    expect(meta.resource).toBe(s.mcpUrl);
  });

  it('discovers, registers, signs in with PKCE; the unbound first call names the connect page', async () => {
    provider = new MemoryOAuthProvider(50_000 + Math.floor(Math.random() * 10_000));
    await expect(connectWith(provider)).rejects.toThrow(/Unauthorized/i);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin).toBe(idp.issuer);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(s.mcpUrl);
    clientId = provider.clientInformation()!.client_id;

    const pages: string[] = [];
    const code = await signInAndConsent(authUrl, demo.users.owner.email, demo.users.owner.password, pages);
    // The identity provider names the client by its registered name, its random id only as a detail.
    expect(pages.length).toBeGreaterThan(0);
    for (const html of pages) {
      expect(html).toContain('<strong>Sitegate OAuth test client</strong>');
      expect(html).toContain(`(client id ${clientId})`);
    }
    // The consent page says what each scope allows, not only its name.
    const consent = pages.find((h) => h.includes('<h1>Allow access</h1>'))!;
    const items = [...consent.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.length).toBeGreaterThan(1);
    for (const li of items) expect(li).toMatch(/^[A-Z][^<]{10,} <small>\(<code>[a-z_:]+<\/code>\)<\/small>$/);
    expect(consent).toContain(
      'Publish the draft to the live site (after your approval) <small>(<code>publish</code>)',
    );
    expect(consent).not.toContain('does not describe');
    const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
    await transport.finishAuth(code);
    accessToken = provider.tokens()!.access_token;
    const claims = decodeJwt(accessToken);
    expect(claims.aud).toBe(s.mcpUrl);
    expect(claims.iss).toBe(idp.issuer);
    expect(claims.sub).toBe(demo.users.owner.id);

    // Verified but unbound: it connects (never dead-ended), and its first call names the connect page
    // with its code; the owner's other connections are not used.
    const unbound = await connectWith(provider);
    expect(unbound.getInstructions()).toMatch(/not yet connected/);
    expect((await unbound.listTools()).tools.length).toBeGreaterThan(0);
    const first = await unbound.callTool({ name: 'list_pages', arguments: {} });
    expect(first.isError).toBe(true);
    const error = (first.structuredContent as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('not_connected');
    expect(error.message).toMatch(new RegExp(`${s.url}/dashboard/connect\\?code=[A-Z2-9]{4}-[A-Z2-9]{4}`));
    ownCode = /code=([A-Z2-9]{4}-[A-Z2-9]{4})/.exec(error.message)![1]!;
    await unbound.close();
    const bound = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.oauthClientId, clientId));
    expect(bound).toHaveLength(0);
  });

  it('the owner binds the client on the connect page; calls then carry exactly its scopes', async () => {
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const page = await owner.get('/dashboard/connect');
    expect(page.html).toContain(`data-pending-client="${clientId}"`);
    // Looked up by its code, the same sign-in is shown once, with one form, not again in the list.
    const byCode = await owner.get(`/dashboard/connect?code=${ownCode}`);
    expect(byCode.html.match(/id="signin-form"/g)).toHaveLength(1);
    expect(byCode.html).not.toContain(`data-pending-client="${clientId}"`);
    expect(byCode.html.split(`client id ${clientId}`)).toHaveLength(2);
    // It is waiting: the list below does not say that nothing is.
    expect(byCode.html).not.toContain('No assistant is waiting');
    expect(byCode.html).toContain('No other assistant is waiting.');

    // An editor cannot bind it.
    const editor = await signIn(s.url, demo.users.editor.email, demo.users.editor.password);
    const denied = await editor.post('/dashboard/connect/oauth', {
      clientId,
      websiteId: demo.websites.main,
      scopes: ['content:write'],
    });
    expect(denied.status).toBe(403);

    const r = await owner.post('/dashboard/connect/oauth', {
      clientId,
      websiteId: demo.websites.main,
      reach: 'website',
      scopes: [], // site:read only, although the access token carries every scope
    });
    expect(r.status).toBe(200);
    const [conn] = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.oauthClientId, clientId));
    expect(conn).toMatchObject({
      clientKind: 'oauth',
      oauthSubject: demo.users.owner.id,
      scopes: ['site:read'],
    });
    connectionId = conn!.id;
    // Exactly one connection per client: binding it again is refused and writes nothing.
    const twice = await owner.post('/dashboard/connect/oauth', { clientId, websiteId: demo.websites.events });
    expect(twice.status).toBe(409);
    expect(
      await s.sg.deps.services.db.select().from(connections).where(eq(connections.oauthClientId, clientId)),
    ).toHaveLength(1);
    const [pending] = await s.sg.deps.services.db
      .select()
      .from(pairings)
      .where(eq(pairings.oauthClientId, clientId));
    expect(pending!.status).toBe('consumed');

    expect(String(decodeJwt(accessToken).scope)).toContain('content:write');
    const client = await connectWith(provider);
    const r2 = await client.callTool({ name: 'list_pages', arguments: {} });
    expect((r2.structuredContent as { ok: boolean }).ok).toBe(true);
    await client.close();

    const caller = await (s.sg.deps.oauth as JwtEdge).authenticate(accessToken);
    expect(caller).toMatchObject({
      kind: 'caller',
      caller: {
        connectionId,
        scopes: ['site:read'],
        via: 'oauth',
        reach: 'website',
        websiteId: demo.websites.main,
      },
    });
  });

  const sign = async (claims: Record<string, unknown>, key: JWK = jwks.keys[0]!, alg = 'RS256') =>
    new SignJWT(claims)
      .setProtectedHeader({ alg, kid: key.kid, typ: 'at+jwt' })
      .sign(await importJWK(key, alg));
  const claims = (over: Record<string, unknown> = {}) => ({
    iss: idp.issuer,
    aud: s.mcpUrl,
    sub: demo.users.owner.id,
    client_id: clientId,
    scope: 'site:read',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 300,
    ...over,
  });

  it('a correctly signed token for the bound client is accepted (control for the refusals below)', async () => {
    expect(await callOutcome(await sign(claims()))).toBe('ok');
  });

  it('refuses tokens with a wrong audience, wrong issuer, expired, or signed by another key', async () => {
    expect(await mcpStatus(await sign(claims({ aud: 'http://127.0.0.1:1/api/mcp' })))).toBe(401);
    expect(await mcpStatus(await sign(claims({ aud: [s.mcpUrl.replace('/api/mcp', '/other')] })))).toBe(401);
    expect(await mcpStatus(await sign(claims({ iss: 'http://127.0.0.1:2' })))).toBe(401);
    const past = Math.floor(Date.now() / 1000) - 600;
    const expired = await sign(claims({ iat: past, exp: past + 60 }));
    expect(await mcpStatus(expired)).toBe(401);
    // An access token that was sent is told it is not valid (RFC 6750 §3.1), not asked for a token.
    const answer = await postMcp(s.mcpUrl, expired);
    expect(answer.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]*sign in again[^"]*", resource_metadata="/,
    );
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const other = { ...(await exportJWK(privateKey)), kid: jwks.keys[0]!.kid };
    expect(await mcpStatus(await sign(claims(), other))).toBe(401);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.`;
    expect(await mcpStatus(unsigned)).toBe(401);
    // A delivery token is not an access token either (R-AUTH-6).
    const { token: dlv } = await createDeliveryToken(
      s.sg.deps.services.db,
      demo.users.owner.id,
      demo.websites.main,
    );
    expect(await mcpStatus(dlv)).toBe(401);
    // A token for another (subject, client) pair is verified but unbound: never another connection.
    expect(await callOutcome(await sign(claims({ client_id: 'someone-else' })))).toBe('not_connected');
  });

  it('a sign-in from any issuer subject is bound with the connect code its refusal shows', async () => {
    // Unique per run: a database that outlives the run must not hold a binding from an earlier one.
    const extClient = `ext-client-${uniqueTag()}`;
    const token = await sign(claims({ sub: 'external-user-42', client_id: extClient }));
    const first = await rawCallCode(s.mcpUrl, token);
    expect(first.code).toBe('not_connected');
    const code = /code=([A-Z2-9]{4}-[A-Z2-9]{4})/.exec(first.text!)![1]!;

    const editor = await signIn(s.url, demo.users.editor.email, demo.users.editor.password);
    const byEditor = await editor.post('/dashboard/connect/oauth', { code, websiteId: demo.websites.main });
    expect(byEditor.status).toBe(403);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const wrong = await owner.post('/dashboard/connect/oauth', {
      code: 'ZZZZ-ZZZZ',
      websiteId: demo.websites.main,
    });
    expect(wrong.status).toBe(404);
    const db = s.sg.deps.services.db;
    expect(await db.select().from(connections).where(eq(connections.oauthClientId, extClient))).toHaveLength(
      0,
    );
    expect(await callOutcome(token)).toBe('not_connected');

    // Someone else's sign-in is never listed on the owner's page; only the code reveals it.
    expect((await owner.get('/dashboard/connect')).html).not.toContain(extClient);
    const page = await owner.get(`/dashboard/connect?code=${code}`);
    expect(page.html).toContain('id="signin-form"');
    expect(page.html).toContain('external-user-42');
    const ok = await owner.post('/dashboard/connect/oauth', {
      code,
      websiteId: demo.websites.main,
      scopes: ['content:write'],
    });
    expect(ok.status).toBe(200);
    const [conn] = await db.select().from(connections).where(eq(connections.oauthClientId, extClient));
    expect(conn).toMatchObject({ oauthSubject: 'external-user-42', createdBy: demo.users.owner.id });
    expect(await callOutcome(token)).toBe('ok');
    const outcome = await (s.sg.deps.oauth as JwtEdge).authenticate(token);
    expect(outcome).toMatchObject({ kind: 'caller', caller: { scopes: ['site:read', 'content:write'] } });
    // The code is spent.
    const again = await owner.post('/dashboard/connect/oauth', { code, websiteId: demo.websites.main });
    expect(again.status).toBe(404);
  });

  it('the owner dismisses an abandoned sign-in of their own; no one else can', async () => {
    const abandoned = `abandoned-${uniqueTag()}`;
    const token = await sign(claims({ client_id: abandoned }));
    expect(await callOutcome(token)).toBe('not_connected');
    const db = s.sg.deps.services.db;
    const [row] = await db.select().from(pairings).where(eq(pairings.oauthClientId, abandoned));
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    expect((await owner.get('/dashboard/connect')).html).toContain(`data-pending-client="${abandoned}"`);

    // Another person cannot dismiss it: 404, and it stays pending.
    const other = await signIn(s.url, demo.users.editor.email, demo.users.editor.password);
    await other.get('/dashboard/connect');
    const refused = await other.post(`/dashboard/connect/oauth/${row!.id}/dismiss`);
    expect(refused.status).toBe(404);
    expect((await db.select().from(pairings).where(eq(pairings.id, row!.id)))[0]!.status).toBe('pending');

    await owner.get('/dashboard/connect');
    const done = await owner.post(`/dashboard/connect/oauth/${row!.id}/dismiss`);
    expect(done.status).toBe(303);
    const after = await owner.get(done.location!);
    expect(after.html).toContain('Dismissed.');
    expect(after.html).not.toContain(`data-pending-client="${abandoned}"`);
    expect(await db.select().from(connections).where(eq(connections.oauthClientId, abandoned))).toHaveLength(
      0,
    );
    // Dismissed twice: nothing left to dismiss.
    expect((await owner.post(`/dashboard/connect/oauth/${row!.id}/dismiss`)).status).toBe(404);
  });

  it('refuses a forged delegation and an expired one; accepts a fresh genuine one', async () => {
    const edge = s.sg.deps.oauth as JwtEdge;
    const config = s.sg.deps.services.config;
    const genuine = delegationSigner(delegationKey(config), config.baseUrl);
    const binding = { issuer: idp.issuer, subject: demo.users.owner.id, clientId };
    const fresh = await genuine.sign({ connectionId, binding }, new Date());
    expect((await edge.resolveDelegation(fresh))?.connectionId).toBe(connectionId);

    const forged = delegationSigner(new TextEncoder().encode('x'.repeat(43)), config.baseUrl);
    expect(await edge.resolveDelegation(await forged.sign({ connectionId, binding }, new Date()))).toBeNull();
    const expired = await genuine.sign({ connectionId, binding }, new Date(Date.now() - 301_000));
    expect(await edge.resolveDelegation(expired)).toBeNull();
    // A genuine delegation naming another connection than the one bound to its client is refused.
    const other = await genuine.sign({ connectionId: demo.connections.default, binding }, new Date());
    expect(await edge.resolveDelegation(other)).toBeNull();
  });

  it('after the owner revokes the connection the same token is unbound again', async () => {
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const r = await owner.post(`/settings/advanced/developers/connections/${connectionId}/revoke`, {});
    expect(r.status).toBe(303);
    expect(await callOutcome(accessToken)).toBe('not_connected');
  });
});
