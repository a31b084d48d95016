// list_bookings: the website's bookings, newest first, with every visitor-written field fenced.
import { expect, it } from 'vitest';
import { bookings } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_bookings'));

it("lists this website's bookings as stored, visitor text fenced, and no other website's", async () => {
  const w = await kit.workspace();
  const id = newId('bkg');
  const startsAt = new Date('2030-03-04T10:00:00.000Z');
  await kit.db.insert(bookings).values([
    {
      id,
      websiteId: w.websites.main,
      status: 'confirmed',
      customerName: 'Pat Customer',
      customerEmail: 'pat@example.com',
      message: 'Vegetarian please',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 7_200_000),
    },
    {
      id: newId('bkg'),
      websiteId: w.websites.events,
      status: 'confirmed',
      customerName: 'Elsewhere',
      startsAt,
      endsAt: startsAt,
    },
  ]);
  const r = await kit.call(w.tokens.all, 'list_bookings', { status: 'confirmed' });
  expect(r.ok).toBe(true);
  expect(r.data!.bookings).toHaveLength(1);
  expect(r.data!.bookings[0]).toMatchObject({
    id,
    status: 'confirmed',
    serviceId: null,
    startsAt: '2030-03-04T10:00:00.000Z',
    endsAt: '2030-03-04T12:00:00.000Z',
    customerName: { untrusted: true, text: 'Pat Customer' },
    customerEmail: { untrusted: true, text: 'pat@example.com' },
    customerPhone: null,
    message: { untrusted: true, text: 'Vegetarian please' },
  });
});

it("refuses another workspace's website as not found", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const r = await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.workspace, 'list_bookings', { websiteId: w.websites.main }),
    { tool: 'list_bookings', companyIds: [other.companyId, w.companyId] },
  );
  expect(r.data).toBeUndefined();
});
