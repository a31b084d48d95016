// list_sites: the websites this connection can reach, with the caller's role on each.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies } from '../../src/db/schema.js';
import { type Envelope, toolKit } from './kit.js';

const kit = toolKit();
const ids = (r: Envelope) => r.data?.sites.map((x: { websiteId: string }) => x.websiteId).sort();

it('matches its contract snapshot', () => kit.expectContract('list_sites'));

it('shows a single-site connection its site, and a workspace connection both sites', async () => {
  const w = await kit.workspace();
  const one = await kit.call(w.tokens.default, 'list_sites');
  expect(one.data?.sites).toMatchObject([
    { websiteId: w.websites.main, name: 'Fixture Bakery', role: 'owner' },
  ]);
  expect(ids(await kit.call(w.tokens.workspace, 'list_sites'))).toEqual(
    [w.websites.main, w.websites.events].sort(),
  );
});

it('refuses when the agency withholds the site area (area_disabled), writing nothing', async () => {
  const w = await kit.workspace();
  await kit.db
    .update(companies)
    .set({ withheldAreas: ['site'] })
    .where(eq(companies.id, w.companyId));
  await kit.expectRefusal('area_disabled', () => kit.call(w.tokens.all, 'list_sites'), {
    tool: 'list_sites',
    companyIds: [w.companyId],
  });
});
