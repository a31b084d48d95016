// The human steps go to the human (R-PLAN-9, R-AUTH-5), with the official SDK v2 client pinned to
// 2026-07-28 and declaring URL-mode elicitation: confirm_pending_action on an unapproved plan answers
// with an input-required URL elicitation to approveUrl and a signed requestState, and the client's
// retry (after the owner approved in the real page) redeems the plan; an unbound OAuth client is sent
// to the connect page and its retry succeeds once the owner bound it. A tampered requestState, or one
// carried to another plan, is refused and nothing is written. Clients without URL elicitation keep
// the plain plan_pending refusal with the link in its hint.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { type JWK, SignJWT, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { connections } from '../../src/db/schema.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { MODERN, postModern } from '../helpers/mcp2026.js';
import { type TestServer, freePort, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';
import { approve, fixture, planRow } from '../plans/rail.js';

let s: TestServer;
let idp: Idp;
let jwks: { keys: JWK[] };

beforeAll(async () => {
  jwks = await signingKeys();
  const idpPort = await freePort();
  s = await startTestServer({ seed: false, env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` } });
  idp = await startIdp({ db: (await testDatabase()).db, audience: s.mcpUrl, jwks, port: idpPort });
});
afterAll(async () => {
  await s?.close();
  await idp?.close();
});

type Elicited = { mode?: string; url?: string; message?: string };

/** SDK v2 client pinned to 2026-07-28; `onUrl` plays the person who opens the URL. */
async function modernClient(
  token: string,
  opts: { onUrl?: (p: Elicited) => Promise<string>; manual?: boolean },
) {
  const c = new Client(
    { name: 'sitegate-2026-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: MODERN } },
      capabilities: { elicitation: { url: {} } },
      inputRequired: { autoFulfill: !opts.manual },
    },
  );
  c.setRequestHandler('elicitation/create', async (req) => {
    const action = opts.onUrl ? await opts.onUrl(req.params as Elicited) : 'cancel';
    return { action: action as 'accept' | 'decline' | 'cancel' };
  });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(s.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return c;
}

const envelope = (r: unknown) =>
  (r as { structuredContent: { ok: boolean; data?: any; error?: any } }).structuredContent;

/** A publish plan of a fresh fixture, with one draft edit so there is something to publish. */
async function pendingPublish() {
  const f = await fixture(s);
  const edit = await s.call(f.demo.tokens.all, 'update_section_text', {
    pageId: f.demo.pages.home,
    sectionId: f.demo.sections.hero,
    text: { heading: `Fresh bread ${uniqueTag()}` },
  });
  expect(edit.ok, JSON.stringify(edit.error)).toBe(true);
  const plan = await s.call(f.demo.tokens.all, 'prepare_publish');
  expect(plan.ok, JSON.stringify(plan.error)).toBe(true);
  return { f, planId: plan.data!.planId as string, approveUrl: plan.data!.approveUrl as string };
}

describe('approving a plan through URL elicitation (2026-07-28)', () => {
  it('sends the person to approveUrl; after the owner approves, the retry redeems the plan once', async () => {
    const { f, planId, approveUrl } = await pendingPublish();
    const seen: Elicited[] = [];
    const c = await modernClient(f.demo.tokens.all, {
      onUrl: async (p) => {
        seen.push(p);
        // The person opens the page and approves there (the real page, CSRF and all).
        expect(await approve(f.owner, planId)).toBe(303);
        return 'accept';
      },
    });
    const r = await c.callTool({ name: 'confirm_pending_action', arguments: { planId } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ mode: 'url', url: approveUrl });
    expect(envelope(r)).toMatchObject({ ok: true, data: { planId, kind: 'publish', status: 'redeemed' } });
    expect((await planRow(s, planId))!.status).toBe('redeemed');
    // Single use still holds on a new call.
    const again = await c.callTool({ name: 'confirm_pending_action', arguments: { planId } });
    expect(envelope(again).error.code).toBe('plan_used');
    await c.close();
  });

  it('the person declining the elicitation leaves the plain plan_pending refusal; nothing is redeemed', async () => {
    const { f, planId } = await pendingPublish();
    const c = await modernClient(f.demo.tokens.all, { onUrl: async () => 'decline' });
    const r = await c.callTool({ name: 'confirm_pending_action', arguments: { planId } });
    expect(envelope(r).error.code).toBe('plan_pending');
    expect((await planRow(s, planId))!.status).toBe('pending');
    await c.close();
  });

  it('refuses a tampered requestState and one carried to another plan; nothing is written', async () => {
    const { f, planId } = await pendingPublish();
    const params = { name: 'confirm_pending_action', arguments: { planId } };
    const caps = { elicitation: { url: {} } };
    const first = await postModern(s.mcpUrl, f.demo.tokens.all, 'tools/call', params, { capabilities: caps });
    expect(first.body.result.resultType).toBe('input_required');
    const state: string = first.body.result.requestState;
    const ask = first.body.result.inputRequests.approve;
    expect(ask).toMatchObject({ method: 'elicitation/create', params: { mode: 'url' } });
    expect(ask.params.url).toBe(`${s.url}/approvals/${planId}`);
    expect(await approve(f.owner, planId)).toBe(303);

    const retry = (requestState: string, p = params, token = f.demo.tokens.all) =>
      postModern(
        s.mcpUrl,
        token,
        'tools/call',
        {
          ...p,
          requestState,
          inputResponses: { approve: { action: 'accept' } },
        },
        { capabilities: caps },
      );
    // One character of the signed body changed: refused before any handler runs.
    const [v, body, mac] = state.split('.');
    const flipped = body!.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    const tampered = await retry([v, flipped, mac].join('.'));
    expect(tampered.body.error.code).toBe(-32602);
    expect(tampered.body.error.message).toMatch(/requestState/);
    expect((await planRow(s, planId))!.status).toBe('approved');
    // The same state from another connection (the binding to the principal fails).
    const stolen = await retry(state, params, f.demo.tokens.default);
    expect(stolen.body.error.code).toBe(-32602);
    // Genuine state for this plan, carried to another plan of the same caller.
    const other = await pendingPublish();
    const wrongPlan = await retry(state, { ...params, arguments: { planId: other.planId } });
    expect(wrongPlan.body.error.code).toBe(-32602);
    expect((await planRow(s, planId))!.status).toBe('approved');
    // The genuine retry redeems it.
    const ok = await retry(state);
    expect(ok.body.result.structuredContent).toMatchObject({ ok: true, data: { status: 'redeemed' } });
    expect((await planRow(s, planId))!.status).toBe('redeemed');
  });

  it('without URL elicitation (2026 or 2025), plan_pending with the link in the hint, as before', async () => {
    const { f, planId } = await pendingPublish();
    const modern = await postModern(s.mcpUrl, f.demo.tokens.all, 'tools/call', {
      name: 'confirm_pending_action',
      arguments: { planId },
    });
    expect(modern.body.result.resultType).toBe('complete');
    expect(modern.body.result.structuredContent.error.code).toBe('plan_pending');
    const legacy = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(legacy.error?.code).toBe('plan_pending');
    expect(legacy.error?.hint).toMatch(/approveUrl/);
    expect((await planRow(s, planId))!.status).toBe('pending');
  });
});

describe('an unbound OAuth client is sent to the connect page (2026-07-28)', () => {
  const sign = async (clientId: string) =>
    new SignJWT({ client_id: clientId, scope: 'site:read content:write' })
      .setProtectedHeader({ alg: 'RS256', kid: jwks.keys[0]!.kid, typ: 'at+jwt' })
      .setIssuer(idp.issuer)
      .setAudience(s.mcpUrl)
      .setSubject(`external-${clientId}`)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(jwks.keys[0]!, 'RS256'));

  it('elicits the connect URL with its code; after the owner binds it there, the retry succeeds', async () => {
    const d = await s.seed();
    const clientId = `client-${uniqueTag()}`;
    const token = await sign(clientId);
    const owner = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    const seen: Elicited[] = [];
    const c = await modernClient(token, {
      onUrl: async (p) => {
        seen.push(p);
        const code = new URL(p.url!).searchParams.get('code')!;
        // The owner opens the link and connects the assistant to the main site.
        await owner.get(`/dashboard/connect?code=${code}`);
        const bound = await owner.post('/dashboard/connect/oauth', {
          code,
          websiteId: d.websites.main,
          reach: 'website',
          scopes: ['content:write'],
        });
        expect(bound.status).toBe(200);
        return 'accept';
      },
    });
    // Connected, and listing works before the binding.
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    const r = await c.callTool({ name: 'list_pages', arguments: {} });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toMatch(new RegExp(`^${s.url}/dashboard/connect\\?code=[A-Z2-9]{4}-[A-Z2-9]{4}$`));
    expect(envelope(r).ok).toBe(true);
    const [conn] = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.oauthClientId, clientId));
    expect(conn).toMatchObject({ websiteId: d.websites.main, scopes: ['site:read', 'content:write'] });
    await c.close();
  });

  it('without URL elicitation the call answers not_connected with the link; nothing is bound', async () => {
    const clientId = `client-${uniqueTag()}`;
    const r = await postModern(s.mcpUrl, await sign(clientId), 'tools/call', {
      name: 'list_pages',
      arguments: {},
    });
    expect(r.body.result.structuredContent.error.code).toBe('not_connected');
    expect(r.body.result.structuredContent.error.message).toContain(`${s.url}/dashboard/connect?code=`);
    const bound = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.oauthClientId, clientId));
    expect(bound).toHaveLength(0);
  });
});
