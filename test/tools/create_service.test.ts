// create_service: a draft service that is not public, charges no one and sends nothing.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { mailOutbox, services } from '../../src/db/schema.js';
import { tokenFor } from '../business/fixtures.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('create_service'));

it('stores a draft service that charges no one and sends nothing; the rest defaults', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.all, 'create_service', {
    name: '  Sourdough class ',
    description: 'Three hours',
    priceCents: 6000,
    currency: 'USD',
    durationMinutes: 180,
  });
  expect(r.ok).toBe(true);
  const [row] = await kit.db.select().from(services).where(eq(services.id, r.data!.serviceId));
  expect(row).toMatchObject({
    websiteId: w.websites.main,
    name: 'Sourdough class',
    description: 'Three hours',
    priceCents: 6000,
    currency: 'USD',
    durationMinutes: 180,
    status: 'draft',
  });
  const minimal = await kit.call(w.tokens.all, 'create_service', { name: 'Tasting' });
  const [bare] = await kit.db.select().from(services).where(eq(services.id, minimal.data!.serviceId));
  expect(bare).toMatchObject({ priceCents: null, durationMinutes: null, currency: 'EUR', status: 'draft' });
  expect(await kit.db.select().from(mailOutbox).where(eq(mailOutbox.websiteId, w.websites.main))).toEqual([]);
});

it('refuses invalid drafts and a viewer, writing nothing', async () => {
  const w = await kit.workspace();
  const opts = { tool: 'create_service', companyIds: [w.companyId] as [string] };
  for (const args of [{ name: 'x'.repeat(121) }, { name: 'Dur', durationMinutes: 0 }]) {
    await kit.expectRefusal('invalid_input', () => kit.call(w.tokens.all, 'create_service', args), opts);
  }
  const viewer = await tokenFor(kit.db, {
    userId: w.users.viewer.id,
    websiteId: w.websites.main,
    companyId: w.companyId,
  });
  await kit.expectRefusal('role_insufficient', () => kit.call(viewer, 'create_service', { name: 'A' }), opts);
});
