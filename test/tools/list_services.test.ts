// list_services: the website's services, draft and public, with price, currency and duration.
import { expect, it } from 'vitest';
import { services } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_services'));

it("lists this website's services as stored, and no other website's", async () => {
  const w = await kit.workspace();
  const id = newId('svc');
  await kit.db.insert(services).values([
    {
      id,
      websiteId: w.websites.main,
      name: 'Bread workshop',
      description: 'Two hours of kneading.',
      priceCents: 4500,
      durationMinutes: 120,
      status: 'public',
    },
    { id: newId('svc'), websiteId: w.websites.events, name: 'Not on this site' },
  ]);
  const r = await kit.call(w.tokens.all, 'list_services');
  expect(r.ok).toBe(true);
  expect(r.data!.services).toEqual([
    {
      serviceId: id,
      name: 'Bread workshop',
      description: 'Two hours of kneading.',
      priceCents: 4500,
      currency: 'EUR',
      durationMinutes: 120,
      status: 'public',
    },
  ]);
});

it('refuses a connection without commerce:write', async () => {
  const w = await kit.workspace();
  const r = await kit.expectRefusal('scope_missing', () => kit.call(w.tokens.default, 'list_services'), {
    tool: 'list_services',
    companyIds: [w.companyId],
  });
  expect(r.data).toBeUndefined();
});
