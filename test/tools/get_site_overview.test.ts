// get_site_overview: one website at a glance (name, business, live or not, counts, domains).
import { expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('get_site_overview'));

it('reports the site, its business name, counts and domains', async () => {
  const w = await kit.workspace();
  const hostname = `${w.companyId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example`;
  await kit.db.insert(domains).values({
    id: newId('dom'),
    websiteId: w.websites.main,
    hostname,
    status: 'verified',
    verificationToken: 'token',
    isPrimary: true,
  });
  const r = await kit.call(w.tokens.default, 'get_site_overview');
  expect(r.data).toMatchObject({
    websiteId: w.websites.main,
    name: 'Fixture Bakery',
    businessName: expect.stringMatching(/^Fixture Bakery t/),
    published: false,
    pages: 1,
    sections: 1,
    domains: [{ hostname, status: 'verified', primary: true }],
  });
});

it("refuses another workspace's websiteId exactly as a missing one (not_found), writing nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  for (const token of [w.tokens.default, w.tokens.workspace]) {
    const foreign = await kit.expectRefusal(
      'not_found',
      () => kit.call(token, 'get_site_overview', { websiteId: other.websites.main }),
      { tool: 'get_site_overview', companyIds: [w.companyId, other.companyId] },
    );
    const missing = await kit.call(token, 'get_site_overview', { websiteId: 'site_doesnotexist00' });
    expect(foreign.error).toEqual(missing.error);
  }
});
