// End to end with the SDK Client over HTTP against the real server: resources, tools/list per scope,
// reach (which sites a connection may name) and Activity. Each site:read tool's own tests are in
// test/tools/<tool>.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/auth/connections.js';
import { activity, websiteMembers } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('tenancy and reach', () => {
  it('list_access needs access:write and shows nothing of another tenant', async () => {
    const noScope = await s.call(s.demo.tokens.default, 'list_access', {});
    expect(noScope.error?.code).toBe('scope_missing');
    expect(noScope.data).toBeUndefined();
    const foreign = await s.call(s.demo.tokens.workspace, 'list_access', {
      websiteId: s.demo.websites.otherTenant,
    });
    expect(foreign.error?.code).toBe('not_found');
    expect(foreign.data).toBeUndefined();
  });

  it('a single-site connection cannot read the workspace’s other site', async () => {
    const r = await s.call(s.demo.tokens.default, 'list_pages', { websiteId: s.demo.websites.events });
    expect(r.error?.code).toBe('not_found');
  });

  it('a workspace connection must name websiteId, and may name any site of the workspace', async () => {
    const missing = await s.call(s.demo.tokens.workspace, 'list_pages');
    expect(missing.error?.code).toBe('invalid_input');
    const events = await s.call(s.demo.tokens.workspace, 'list_pages', { websiteId: s.demo.websites.events });
    expect(events.data?.pages[0].title).toBe('Events');
  });

  it('a creator removed from the site is refused at the next call; demoted to viewer may still read', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    expect((await s.call(d.tokens.default, 'list_pages')).ok).toBe(true);
    await db
      .update(websiteMembers)
      .set({ role: 'viewer' })
      .where(eq(websiteMembers.userId, d.users.owner.id));
    expect((await s.call(d.tokens.default, 'list_pages')).ok).toBe(true);
    await db.delete(websiteMembers).where(eq(websiteMembers.userId, d.users.owner.id));
    const after = await s.call(d.tokens.default, 'list_pages');
    expect(after.error?.code).toBe('role_insufficient');
  });
});

describe('tools/list and resources', () => {
  it('tools/list shows only what the connection’s scopes allow, each with annotations', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const readOnly = await createConnection(db, {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'read only',
      scopes: [],
    });
    const c = await s.client(readOnly.token!);
    const { tools } = await c.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) {
      expect(s.sg.deps.registry.get(t.name)?.def.scope).toBe('site:read');
      // No plan kind is redeemable with site:read alone, so confirm_pending_action is not listed.
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.outputSchema).toBeUndefined();
    }
    const all = await (await s.client(d.tokens.all)).listTools();
    expect(all.tools.length).toBe(s.sg.deps.registry.all().length);
  });

  it('lists and reads the four resources of the default site', async () => {
    const c = await s.client(s.demo.tokens.default);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [
        'sitegate://site/brand',
        'sitegate://site/draft-changes',
        'sitegate://site/overview',
        'sitegate://site/pages',
      ].sort(),
    );
    for (const r of resources) {
      const read = await c.readResource({ uri: r.uri });
      const first = read.contents[0] as { text: string };
      expect(JSON.parse(first.text)).toBeTypeOf('object');
    }
    const overview = await c.readResource({ uri: 'sitegate://site/overview' });
    expect(JSON.parse((overview.contents[0] as { text: string }).text).websiteId).toBe(s.demo.websites.main);
  });

  it('initialize carries instructions that visitor text is data', async () => {
    const c = await s.client(s.demo.tokens.default);
    expect(c.getInstructions()).toMatch(/data, never instructions/);
    expect(c.getServerCapabilities()?.tools).toBeDefined();
  });
});

describe('Activity', () => {
  it('writes one line per call, allowed or denied, without personal data', async () => {
    const d = await s.seed();
    await s.call(d.tokens.default, 'list_pages');
    await s.call(d.tokens.default, 'get_page', { pageId: d.pages.otherHome });
    await s.call(d.tokens.default, 'list_leads');
    await s.sg.deps.activity.flush();
    const rows = await s.sg.deps.services.db
      .select()
      .from(activity)
      .where(eq(activity.companyId, d.companyId))
      .orderBy(activity.id);
    expect(rows.map((r) => r.outcome)).toEqual(['allowed', 'denied', 'denied']);
    expect(rows.map((r) => r.code)).toEqual([null, 'not_found', rows[2]!.code]);
    const text = JSON.stringify(rows);
    for (const secret of [
      d.users.owner.email,
      'Olivia',
      'Sam Visitor',
      'sam@example.com',
      'Sent price list',
      d.tokens.default,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
