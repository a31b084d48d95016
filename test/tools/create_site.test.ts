// create_site: one new, empty, unpublished draft site in the workspace, within the plan's site limit.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies, pages, websiteMembers, websites } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('create_site'));

it('creates an empty draft site owned by the connection’s creator', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.workspace, 'create_site');
  expect(r.data).toMatchObject({ published: false, pages: 0 });
  const id = r.data!.websiteId as string;
  const [site] = await kit.db.select().from(websites).where(eq(websites.id, id));
  expect(site).toMatchObject({ companyId: w.companyId, publishedRev: null });
  expect(await kit.db.select().from(pages).where(eq(pages.websiteId, id))).toEqual([]);
  const members = await kit.db.select().from(websiteMembers).where(eq(websiteMembers.websiteId, id));
  expect(members).toMatchObject([{ userId: w.users.owner.id, role: 'owner' }]);
});

it('refuses past the plan’s site limit (site_limit_reached), writing nothing', async () => {
  const w = await kit.workspace();
  await kit.db.update(companies).set({ siteLimit: 2 }).where(eq(companies.id, w.companyId));
  await kit.expectRefusal('site_limit_reached', () => kit.call(w.tokens.workspace, 'create_site'), {
    tool: 'create_site',
    companyIds: [w.companyId],
  });
});
