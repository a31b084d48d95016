// The change-feed caches never serve what a committed change has made wrong: every table they read
// notifies on change, a fill that raced an invalidation is discarded, and the next call after a
// change sees it (tokens, roles, agency areas, grants, content).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedCache, changeFeed } from '../../src/db/change-feed.js';
import { companies, connections, sections, websiteMembers } from '../../src/db/schema.js';
import { type TestServer, postMcp, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('FeedCache', () => {
  it('discards a fill that an invalidation overtook, and bypasses while not live', async () => {
    const feed = changeFeed();
    feed.setLive(true);
    const cache = new FeedCache<number>(feed, ['t']);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<number>((r) => (release = () => r(1))));
    feed.emit('t');
    release();
    expect(await slow).toBe(1);
    expect(await cache.get('k', async () => 2)).toBe(2); // the stale 1 was not kept
    expect(await cache.get('k', async () => 3)).toBe(2); // 2 was
    feed.emit('other');
    expect(await cache.get('k', async () => 4)).toBe(2);
    feed.setLive(false);
    expect(await cache.get('k', async () => 5)).toBe(5);
  });
});

describe.skipIf(process.env.DATABASE_URL)('the database notifies every change the caches depend on', () => {
  it.each([
    'connections',
    'website_members',
    'companies',
    'websites',
    'websites:auth', // a website created, deleted or moved: what the gate's facts depend on (0009)
    'pages',
    'sections',
    'brands',
    'domains',
  ])('%s', async (table) => {
    const seen: string[] = [];
    s.sg.database.feed.subscribe((t) => seen.push(t));
    const d = await s.seed(); // inserts into every one of them
    expect(seen).toContain(table);
    expect(d.companyId).toBeTruthy();
  });

  it('PGlite delivers the notification before the committing statement resolves', async () => {
    const seen: string[] = [];
    s.sg.database.feed.subscribe((t) => seen.push(t));
    await s.sg.deps.services.db
      .update(companies)
      .set({ credits: 41 })
      .where(eq(companies.id, s.demo.companyId));
    expect(seen).toEqual(['companies']);
    expect(s.sg.database.feed.live).toBe(true);
  });

  it('a last-used update does not invalidate the token cache (it is not an authorization fact)', async () => {
    const seen: string[] = [];
    s.sg.database.feed.subscribe((t) => seen.push(t));
    await s.sg.deps.services.db
      .update(connections)
      .set({ lastUsedAt: new Date() })
      .where(eq(connections.id, s.demo.connections.all));
    expect(seen).not.toContain('connections');
  });
});

it.runIf(process.env.DATABASE_URL)('on PostgreSQL the caches stay off', () => {
  expect(s.sg.database.feed.live).toBe(false);
});

describe('the next call after a change sees it', () => {
  it('content edited behind the cache', async () => {
    const d = await s.seed();
    const first = await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home });
    expect(first.data?.sections[0].content.heading).toBe('Fresh bread every morning');
    await s.sg.deps.services.db
      .update(sections)
      .set({ content: { heading: 'Changed behind the cache' } })
      .where(eq(sections.id, d.sections.hero));
    const second = await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home });
    expect(second.data?.sections[0].content.heading).toBe('Changed behind the cache');
  });

  it('an agency withholding an area after earlier calls', async () => {
    const d = await s.seed();
    expect((await s.call(d.tokens.all, 'get_brand')).ok).toBe(true);
    await s.sg.deps.services.db
      .update(companies)
      .set({ withheldAreas: ['site'] })
      .where(eq(companies.id, d.companyId));
    expect((await s.call(d.tokens.all, 'get_brand')).error?.code).toBe('area_disabled');
  });

  it('a creator removed after earlier calls, on a cached read', async () => {
    const d = await s.seed();
    expect((await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home })).ok).toBe(true);
    await s.sg.deps.services.db.delete(websiteMembers).where(eq(websiteMembers.websiteId, d.websites.main));
    expect((await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home })).error?.code).toBe(
      'role_insufficient',
    );
  });

  it('a connection revoked after earlier calls', async () => {
    const d = await s.seed();
    expect((await s.call(d.tokens.all, 'get_analytics_summary')).ok).toBe(true);
    await s.sg.deps.services.db
      .update(connections)
      .set({ revokedAt: new Date() })
      .where(eq(connections.id, d.connections.all));
    const r = await postMcp(s.mcpUrl, d.tokens.all);
    expect(r.status).toBe(401);
  });
});
