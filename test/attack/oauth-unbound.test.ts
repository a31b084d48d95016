// Attack suite, unbound OAuth tokens (R-AUTH-5): a verified access token whose client the owner
// has not bound refreshes a pending sign-in row on each call. The limit comes first: past it the call is
// 429 and the row is not written again.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_SIGN_IN_LIMIT } from '../../src/auth/oauth/binding.js';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { pairings } from '../../src/db/schema.js';
import { testDatabase } from '../helpers/db.js';
import { MemoryOAuthProvider, signInAndConsent } from '../helpers/oauth.js';
import { type TestServer, freePort, postMcp, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';

const time = testClock();
let s: TestServer;
let idp: Idp;
beforeAll(async () => {
  const idpPort = await freePort();
  s = await startTestServer({
    seed: false,
    clock: time.clock,
    env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` },
  });
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
});

describe('unbound OAuth tokens', () => {
  it('past the limit: 429 with Retry-After, and the pending sign-in row is not written again', async () => {
    const { owner } = (await s.seed()).users;
    const provider = new MemoryOAuthProvider(50_000 + Math.floor(Math.random() * 10_000));
    const client = new Client({ name: 'unbound-flood', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider })),
    ).rejects.toThrow(/Unauthorized/i);
    const code = await signInAndConsent(provider.authorizationUrl!, owner.email, owner.password);
    await new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider }).finishAuth(code);
    const token = provider.tokens()!.access_token;
    const clientId = provider.clientInformation()!.client_id;
    const row = async () =>
      (
        await s.sg.deps.services.db
          .select({ expiresAt: pairings.expiresAt })
          .from(pairings)
          .where(and(eq(pairings.oauthClientId, clientId), eq(pairings.oauthSubject, owner.id)))
      )[0];

    for (let i = 0; i < PENDING_SIGN_IN_LIMIT.points; i += 1) {
      time.advance(1_000);
      const r = await postMcp(s.mcpUrl, token);
      expect(r.status).not.toBe(429);
      await r.text();
    }
    const written = await row();
    expect(written).toBeDefined();
    time.advance(1_000);
    const limited = await postMcp(s.mcpUrl, token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    // The refused call wrote nothing: the row still holds the last allowed call's expiry.
    expect(await row()).toEqual(written);
  });
});
