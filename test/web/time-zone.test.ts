// One person, one time zone: home, Developers, connect and restore points show the same event in the
// same zone, the one the home page uses (the first website the person owns, by name).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, websites } from '../../src/db/schema.js';
import { takeRestorePoint } from '../../src/domain/sites/restore.js';
import { formatTime } from '../../src/web/pages/time.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

/** The text of the <time> element for `at` on a page, or undefined. */
const shownAt = (html: string, at: Date) =>
  new RegExp(`<time datetime="${at.toISOString()}">([^<]+)</time>`).exec(html)?.[1];

describe('one time zone per person', () => {
  it('every owner page shows times in the zone of the first website the person owns', async () => {
    const demo = await s.seed();
    const db = s.sg.deps.services.db;
    const zones = { [demo.websites.main]: 'Pacific/Auckland', [demo.websites.events]: 'America/Los_Angeles' };
    const sites = [];
    for (const [id, timezone] of Object.entries(zones)) {
      const [row] = await db.select().from(websites).where(eq(websites.id, id));
      await db
        .update(websites)
        .set({ config: { ...(row!.config as Record<string, unknown>), timezone } })
        .where(eq(websites.id, id));
      sites.push({ id, name: row!.name });
    }
    sites.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    const zone = zones[sites[0]!.id]!;
    const other = sites[1]!.id;

    const at = new Date('2026-11-20T22:30:00Z');
    await db.insert(activity).values({
      companyId: demo.companyId,
      websiteId: demo.websites.main,
      connectionId: demo.connections.default,
      tool: 'list_pages',
      outcome: 'allowed',
      summary: 'zone probe',
      createdAt: at,
    });
    // A restore point of the other website, in another zone: still shown in the person's zone.
    const pointAt = new Date('2026-11-21T09:15:00Z');
    const pointId = await takeRestorePoint(db, other, 'zone probe', demo.users.owner.id, pointAt);

    const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
    const expected = formatTime(at, zone);
    expect(expected).not.toContain('UTC');
    const home = await owner.get('/');
    const developers = await owner.get('/settings/advanced/developers');
    expect(shownAt(home.html, at)).toBe(expected);
    expect(shownAt(developers.html, at)).toBe(expected);
    // Nothing on Developers is in UTC any more.
    expect(developers.html).not.toMatch(/<time [^>]*>[^<]*UTC<\/time>/);

    const points = await owner.get(`/dashboard/sites/${other}/restore-points`);
    expect(shownAt(points.html, pointAt)).toBe(formatTime(pointAt, zone));
    const confirm = await owner.get(`/dashboard/sites/${other}/restore-points/${pointId}`);
    expect(shownAt(confirm.html, pointAt)).toBe(formatTime(pointAt, zone));
  });
});
