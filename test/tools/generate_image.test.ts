// generate_image: one brand image into the site's library, one credit charged on delivery.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { assets, companies } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

// No IMAGE_PROVIDER_URL: the built-in brand image maker answers, in-process.
const kit = toolKit();
const credits = async (companyId: string) =>
  (await kit.db.select({ c: companies.credits }).from(companies).where(eq(companies.id, companyId)))[0]!.c;

it('matches its contract snapshot', () => kit.expectContract('generate_image'));

it('stores the image in the library and charges one credit', async () => {
  const w = await kit.workspace({ credits: 5 });
  const r = await kit.call(w.tokens.all, 'generate_image', {
    prompt: 'a loaf on a table',
    aspect: 'landscape',
  });
  expect(r.data).toMatchObject({ creditsSpent: 1, creditsLeft: 4 });
  const [asset] = await kit.db.select().from(assets).where(eq(assets.id, r.data!.assetId));
  expect(asset).toMatchObject({ websiteId: w.websites.main, source: 'generated', mime: r.data!.mime });
  expect(await credits(w.companyId)).toBe(4);
});

it('refuses without the workspace’s AI consent (ai_consent_required), charging nothing', async () => {
  const w = await kit.workspace({ aiConsent: false, credits: 5 });
  await kit.expectRefusal(
    'ai_consent_required',
    () => kit.call(w.tokens.all, 'generate_image', { prompt: 'a loaf on a table' }),
    { tool: 'generate_image', companyIds: [w.companyId] },
  );
  expect(await credits(w.companyId)).toBe(5);
});
