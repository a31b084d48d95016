// get_brand: palette, fonts, style, voice, logo and the Company Memory facts.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { brands, companies, companyMemory } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('get_brand'));

it('returns the brand with the Company Memory facts', async () => {
  const w = await kit.workspace();
  await kit.db
    .insert(brands)
    .values({ websiteId: w.websites.main, palette: { primary: '#8a4b2a' }, voice: 'Warm and plain.' });
  await kit.db.insert(companyMemory).values([
    { id: newId('mem'), companyId: w.companyId, fact: 'Family bakery since 1950.' },
    { id: newId('mem'), companyId: w.companyId, fact: 'Closed on Mondays.' },
  ]);
  const r = await kit.call(w.tokens.default, 'get_brand');
  expect(r.data).toMatchObject({
    palette: { primary: '#8a4b2a' },
    voice: 'Warm and plain.',
    logoAssetId: null,
  });
  expect(r.data?.companyMemory.sort()).toEqual(['Closed on Mondays.', 'Family bakery since 1950.']);
});

it('refuses when the agency withholds the site area, even with every scope (area_disabled)', async () => {
  const w = await kit.workspace();
  await kit.db
    .update(companies)
    .set({ withheldAreas: ['site'] })
    .where(eq(companies.id, w.companyId));
  await kit.expectRefusal('area_disabled', () => kit.call(w.tokens.all, 'get_brand'), {
    tool: 'get_brand',
    companyIds: [w.companyId],
  });
});
