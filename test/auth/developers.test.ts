// Developers settings over HTTP (R-SURF-2, R-AUTH-2): create with reach and scopes, token shown
// once, owner-only, revoke, Activity filters and pagination; delivery tokens and the content API,
// refused by /api/mcp.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, connections, deliveryTokens } from '../../src/db/schema.js';
import { type TestServer, postMcp, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const PAGE = '/settings/advanced/developers';
const tokenIn = (html: string) => /<pre id="token-value">([^<]+)<\/pre>/.exec(html)?.[1];
const rowsOf = (html: string) => [...html.matchAll(/<tr data-outcome="(\w+)"/g)].map((m) => m[1]);

describe('Developers settings', () => {
  it('creates a workspace connection with ticked scopes; the token is shown once and works', async () => {
    const demo = await s.seed();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const db = s.sg.deps.services.db;
    const named = () => db.select().from(connections).where(eq(connections.name, 'Workspace bot'));
    const r = await owner.post(`${PAGE}/connections`, {
      name: 'Workspace bot',
      websiteId: demo.websites.main,
      reach: 'workspace',
      scopes: ['content:write', 'crm:read'],
    });
    // POST-redirect-GET: the POST makes the connection and redirects, the token is not in its body.
    expect(r.status).toBe(303);
    expect(r.location).toBe(PAGE);
    expect(r.html).not.toContain('sg_live_');
    expect(await named()).toHaveLength(1);

    const shown = await owner.get(PAGE);
    expect(shown.status).toBe(200);
    const token = tokenIn(shown.html)!;
    expect(token).toMatch(/^sg_live_[0-9A-Za-z]{32}$/);
    expect(shown.html).toContain('mcp-remote');
    expect(shown.html).toContain(`${s.mcpUrl}`);
    const [row] = await named();
    expect(row).toMatchObject({ reach: 'workspace', scopes: ['site:read', 'content:write', 'crm:read'] });
    expect(row!.tokenHash).not.toBe(token);

    // A reload shows the prefix only and creates nothing.
    const again = await owner.get(PAGE);
    expect(again.html).not.toContain(token);
    expect(again.html).not.toContain('id="token-value"');
    expect(again.html).toContain(`${token.slice(0, 12)}…`);
    expect(await named()).toHaveLength(1);
    const sites = await s.call(token, 'list_sites');
    expect(sites.data?.sites).toHaveLength(2);
  });

  it('the sealed token is for the user who made it, and a tampered cookie shows nothing', async () => {
    const demo = await s.seed();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    await owner.get(PAGE);
    const res = await fetch(`${s.url}${PAGE}/connections`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: owner.cookies(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ name: 'Sealed', websiteId: demo.websites.main, _csrf: owner.csrf() }),
    });
    expect(res.status).toBe(303);
    const sealed = /sg_new_token=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))![1]!;
    expect(sealed).not.toContain('sg_live_');
    // Another signed-in user replaying the cookie sees no token.
    const editor = await signIn(s.url, demo.users.editor.email, demo.users.editor.password);
    const other = await fetch(`${s.url}${PAGE}`, {
      headers: { cookie: `${editor.cookies()}; sg_new_token=${sealed}` },
    });
    expect(await other.text()).not.toContain('id="token-value"');
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = await fetch(`${s.url}${PAGE}`, {
      headers: { cookie: `${owner.cookies()}; sg_new_token=${flipped}` },
    });
    expect(await forged.text()).not.toContain('id="token-value"');
  });

  it('the default reach is this website and the default scopes are the table defaults', async () => {
    const demo = await s.seed();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const page = await owner.get(PAGE);
    expect(page.html).toContain('value="website" checked');
    expect(page.html).toContain('value="content:write" checked');
    expect(page.html).not.toContain('value="publish" checked');
  });

  it.each(['editor', 'viewer'] as const)(
    'a %s cannot create or revoke connections; nothing changes',
    async (who) => {
      const demo = await s.seed();
      const user = await signIn(s.url, demo.users[who].email, demo.users[who].password);
      const page = await user.get(PAGE);
      expect(page.html).toContain('Only a website owner');
      const r = await user.post(`${PAGE}/connections`, { name: `by-${who}`, websiteId: demo.websites.main });
      expect(r.status).toBe(403);
      expect(
        await s.sg.deps.services.db
          .select()
          .from(connections)
          .where(eq(connections.name, `by-${who}`)),
      ).toHaveLength(0);
      const rv = await user.post(`${PAGE}/connections/${demo.connections.default}/revoke`, {});
      expect(rv.status).toBe(404);
      const [conn] = await s.sg.deps.services.db
        .select()
        .from(connections)
        .where(eq(connections.id, demo.connections.default));
      expect(conn!.revokedAt).toBeNull();
      expect((await s.call(demo.tokens.default, 'list_pages')).ok).toBe(true);
    },
  );

  it('revoking a connection makes its token get 401', async () => {
    const demo = await s.seed();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    expect((await owner.post(`${PAGE}/connections/${demo.connections.all}/revoke`, {})).status).toBe(303);
    const res = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.tokens.all}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    // The caller did send a token: the answer says it is no longer valid and where to make a new one,
    // not "send a token", and keeps the challenge the MCP authorization spec requires.
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/,
    );
    const developers = `${s.url}/settings/advanced/developers`;
    expect(challenge).toContain(developers);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain('revoked or replaced');
    expect(body.error.message).toContain(developers);
    expect(body.error.message).not.toContain('Authentication required');

    // A token that never existed gets the very same answer: nothing tells the two apart.
    const unknown = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer sg_live_${'x'.repeat(32)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe(challenge);
    expect(await unknown.json()).toEqual(body);

    // No token at all is still asked for one, without an error code (RFC 6750 §3.1).
    const none = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).not.toContain('error=');
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
      'Authentication required',
    );
  });

  it('Activity: last 90 days, filters by connection and outcome, paginated', async () => {
    const demo = await s.seed();
    const now = Date.now();
    const line = (i: number, outcome: string, connectionId: string, daysAgo = 0) => ({
      companyId: demo.companyId,
      websiteId: demo.websites.main,
      connectionId,
      tool: 'list_pages',
      outcome,
      summary: `line ${i}`,
      createdAt: new Date(now - daysAgo * 86_400_000 - i * 1000),
    });
    await s.sg.deps.services.db
      .insert(activity)
      .values([
        ...Array.from({ length: 55 }, (_, i) => line(i, 'allowed', demo.connections.default)),
        ...Array.from({ length: 3 }, (_, i) => line(100 + i, 'denied', demo.connections.all)),
        line(999, 'denied', demo.connections.all, 91),
      ]);
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const first = await owner.get(PAGE);
    expect(rowsOf(first.html)).toHaveLength(50);
    const next = /id="activity-next" href="([^"]+)"|href="([^"]+)" id="activity-next"/.exec(first.html)!;
    const second = await owner.get((next[1] ?? next[2])!.replaceAll('&amp;', '&'));
    expect(rowsOf(second.html)).toHaveLength(8);
    expect(second.html).not.toContain('line 999');

    const denied = await owner.get(`${PAGE}?outcome=denied`);
    expect(rowsOf(denied.html)).toEqual(['denied', 'denied', 'denied']);
    const byConn = await owner.get(`${PAGE}?connectionId=${demo.connections.all}`);
    expect(rowsOf(byConn.html)).toHaveLength(3);
    // Another tenant's connection id as a filter shows nothing of theirs.
    const other = await owner.get(`${PAGE}?connectionId=${demo.connections.other}&outcome=allowed`);
    expect(rowsOf(other.html).length).toBeLessThanOrEqual(50);
    expect(other.html).not.toContain('Rival');
  });
});

describe('delivery tokens and the content API', () => {
  it('reads published content, is refused by /api/mcp, and stops working when revoked', async () => {
    const demo = await s.seed();
    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const r = await owner.post(`${PAGE}/delivery`, { websiteId: demo.websites.main });
    expect(r.status).toBe(303);
    const token = tokenIn((await owner.get(PAGE)).html)!;
    expect(token).toMatch(/^sg_dlv_[0-9A-Za-z]{32}$/);
    const get = (p: string, t = token) =>
      fetch(`${s.url}${p}`, { headers: { authorization: `Bearer ${t}` } });

    const site = await get('/v1/content/site');
    expect(site.status).toBe(200);
    const body = await site.json();
    expect(body.website.id).toBe(demo.websites.main);
    expect(body.pages.map((p: { slug: string }) => p.slug)).toContain('home');
    const home = await get('/v1/content/pages/home');
    expect(home.status).toBe(200);
    expect((await home.json()).sections.length).toBeGreaterThan(0);
    expect((await get('/v1/content/pages/nope')).status).toBe(404);
    expect((await get('/v1/content/site', demo.tokens.default)).status).toBe(401);

    // It cannot write, and the MCP endpoint does not accept it.
    const write = await fetch(`${s.url}/v1/content/pages/home`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    const mcp = await postMcp(s.mcpUrl, token);
    expect(mcp.status).toBe(401);

    const [row] = await s.sg.deps.services.db
      .select()
      .from(deliveryTokens)
      .where(eq(deliveryTokens.tokenPrefix, token.slice(0, 12)));
    expect((await owner.post(`${PAGE}/delivery/${row!.id}/revoke`, {})).status).toBe(303);
    expect((await get('/v1/content/site')).status).toBe(401);
  });

  it('an editor cannot create a delivery token', async () => {
    const demo = await s.seed();
    const editor = await signIn(s.url, demo.users.editor.email, demo.users.editor.password);
    const r = await editor.post(`${PAGE}/delivery`, { websiteId: demo.websites.main });
    expect(r.status).toBe(403);
    expect(
      await s.sg.deps.services.db
        .select()
        .from(deliveryTokens)
        .where(eq(deliveryTokens.createdBy, demo.users.editor.id)),
    ).toHaveLength(0);
  });
});
