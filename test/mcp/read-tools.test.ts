// End to end with the SDK Client over HTTP against the real server: the site:read tools, resources,
// tools/list per scope, and tenancy (another tenant's id is the same not_found as a missing one).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/auth/connections.js';
import { activity, companies, websiteMembers } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('site:read tools', () => {
  it('list_sites shows the connection’s site; a workspace connection sees both sites', async () => {
    const one = await s.call(s.demo.tokens.default, 'list_sites');
    expect(one.data?.sites.map((x: { websiteId: string }) => x.websiteId)).toEqual([s.demo.websites.main]);
    const ws = await s.call(s.demo.tokens.workspace, 'list_sites');
    expect(ws.data?.sites.map((x: { websiteId: string }) => x.websiteId).sort()).toEqual(
      [s.demo.websites.main, s.demo.websites.events].sort(),
    );
  });

  it('get_site_overview reports the live site and its unpublished change', async () => {
    const r = await s.call(s.demo.tokens.default, 'get_site_overview');
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({
      websiteId: s.demo.websites.main,
      businessName: 'Harbor Bakery',
      published: true,
    });
    expect(r.data?.unpublishedChanges).toBe(1);
    expect(r.data?.domains[0]).toMatchObject({ status: 'verified', primary: true });
  });

  it('list_pages and get_page return pages with section ids, content and rev', async () => {
    const pages = await s.call(s.demo.tokens.default, 'list_pages');
    const home = pages.data?.pages.find((p: { slug: string }) => p.slug === 'home');
    expect(home.sections).toHaveLength(5);
    const page = await s.call(s.demo.tokens.default, 'get_page', { pageId: home.pageId });
    expect(page.data?.sections[0]).toMatchObject({
      type: 'hero',
      rev: 1,
      content: { heading: 'Fresh bread every morning' },
    });
  });

  it('list_draft_changes names the edited section in words', async () => {
    const r = await s.call(s.demo.tokens.default, 'list_draft_changes');
    expect(r.data?.changes).toHaveLength(1);
    expect(r.data?.changes[0]).toMatchObject({ change: 'section_updated', sectionId: s.demo.sections.intro });
    expect(r.data?.changes[0].description).toContain('text section edited');
  });

  it('get_brand includes palette and Company Memory', async () => {
    const r = await s.call(s.demo.tokens.default, 'get_brand');
    expect(r.data?.palette.primary).toBe('#8a4b2a');
    expect(r.data?.companyMemory).toHaveLength(2);
  });

  it('get_analytics_summary counts the window and validates days', async () => {
    const r = await s.call(s.demo.tokens.default, 'get_analytics_summary', { days: 30 });
    expect(r.data?.pageViews).toBeGreaterThan(150);
    expect(r.data?.formSubmissions).toBeGreaterThan(0);
    const week = await s.call(s.demo.tokens.default, 'get_analytics_summary', { days: 7 });
    expect(week.data?.pageViews).toBeLessThan(r.data?.pageViews);
    const bad = await s.call(s.demo.tokens.default, 'get_analytics_summary', { days: 365 });
    expect(bad.error?.code).toBe('invalid_input');
  });

  it('unknown arguments are refused, not ignored', async () => {
    const r = await s.call(s.demo.tokens.default, 'list_pages', { profileId: 'someone-else' });
    expect(r.error?.code).toBe('invalid_input');
  });
});

describe('tenancy and reach', () => {
  it('another tenant’s page id and a nonexistent id give the same not_found', async () => {
    const foreign = await s.call(s.demo.tokens.default, 'get_page', { pageId: s.demo.pages.otherHome });
    const missing = await s.call(s.demo.tokens.default, 'get_page', { pageId: 'page_doesnotexist00' });
    expect(foreign.error).toEqual(missing.error);
    expect(foreign.error?.code).toBe('not_found');
  });

  it('another tenant’s website id and a nonexistent website id give the same not_found', async () => {
    for (const token of [s.demo.tokens.default, s.demo.tokens.workspace]) {
      const foreign = await s.call(token, 'get_site_overview', { websiteId: s.demo.websites.otherTenant });
      const missing = await s.call(token, 'get_site_overview', { websiteId: 'site_doesnotexist00' });
      expect(foreign.error?.code).toBe('not_found');
      expect(foreign.error).toEqual(missing.error);
    }
  });

  it('list_draft_changes refuses another tenant’s site and a workspace call without websiteId', async () => {
    const foreign = await s.call(s.demo.tokens.workspace, 'list_draft_changes', {
      websiteId: s.demo.websites.otherTenant,
    });
    expect(foreign.error?.code).toBe('not_found');
    expect(foreign.data).toBeUndefined();
    const unnamed = await s.call(s.demo.tokens.workspace, 'list_draft_changes', {});
    expect(unnamed.error?.code).toBe('invalid_input');
  });

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

  it('an area withheld by the agency is refused even with every scope', async () => {
    const d = await s.seed();
    await s.sg.deps.services.db
      .update(companies)
      .set({ withheldAreas: ['site'] })
      .where(eq(companies.id, d.companyId));
    const r = await s.call(d.tokens.all, 'get_brand');
    expect(r.error?.code).toBe('area_disabled');
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
