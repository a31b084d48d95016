// Attack suite, Activity across sites: a person who owns one site of a workspace
// sees the Activity of that site only, never of connections on sites they cannot access, whatever
// filter they pass. The scope is the domain's (listActivity takes the viewer, not a list of workspaces).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { activity, users, websiteMembers } from '../../src/db/schema.js';
import { listActivity } from '../../src/domain/activity/list.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';
import { uniqueTag } from '../helpers/db.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const PAGE = '/settings/advanced/developers';

describe('Activity is scoped to the websites the viewer owns', () => {
  it('the owner of the events site alone sees none of the main site, nor its site-less lines', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const email = `events-owner-${uniqueTag()}@example.com`;
    const password = 'events-owner-password';
    const userId = newId('user');
    await db
      .insert(users)
      .values({ id: userId, email, name: 'Events Owner', passwordHash: await hashPassword(password) });
    await db.insert(websiteMembers).values({ websiteId: d.websites.events, userId, role: 'owner' });
    const tag = uniqueTag();
    const line = (summary: string, websiteId: string | null, connectionId: string) => ({
      companyId: d.companyId,
      websiteId,
      connectionId,
      tool: 'list_pages',
      outcome: 'allowed',
      summary: `${summary} ${tag}`,
      createdAt: new Date(),
    });
    await db
      .insert(activity)
      .values([
        line('main-site-line', d.websites.main, d.connections.all),
        line('main-connection-siteless', null, d.connections.default),
        line('events-line', d.websites.events, d.connections.workspace),
      ]);

    const web = await signIn(s.url, email, password);
    for (const q of [
      '',
      `?connectionId=${d.connections.all}`,
      `?connectionId=${d.connections.default}`,
      '?outcome=allowed',
    ]) {
      const page = await web.get(`${PAGE}${q}`);
      expect(page.status).toBe(200);
      expect(page.html, q).not.toContain(`main-site-line ${tag}`);
      expect(page.html, q).not.toContain(`main-connection-siteless ${tag}`);
    }
    expect((await web.get(PAGE)).html).toContain(`events-line ${tag}`);

    // The domain function itself, read directly: same answer for the same viewer.
    const mine = await listActivity(db, { viewerId: userId }, new Date());
    expect(mine.rows.map((r) => r.summary)).toEqual([`events-line ${tag}`]);
    // The workspace owner (owner of both sites) still sees all three.
    const owner = await listActivity(db, { viewerId: d.users.owner.id }, new Date());
    expect(owner.rows.filter((r) => r.summary.endsWith(tag))).toHaveLength(3);
  });
});
