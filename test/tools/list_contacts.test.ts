// list_contacts: the business's contacts, newest first, with every visitor-written field fenced.
import { expect, it } from 'vitest';
import { contacts } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_contacts'));

it("lists this website's contacts page by page, visitor text fenced", async () => {
  const w = await kit.workspace();
  const t = Date.now();
  const [first, second] = [newId('ctc'), newId('ctc')];
  await kit.db.insert(contacts).values([
    {
      id: first,
      websiteId: w.websites.main,
      status: 'customer',
      name: 'Pat Customer',
      email: 'pat@example.com',
      company: 'Pat & Co',
      createdAt: new Date(t),
    },
    {
      id: second,
      websiteId: w.websites.main,
      status: 'subscriber',
      name: 'Kim Newsletter',
      createdAt: new Date(t - 60_000),
    },
  ]);
  const page1 = await kit.call(w.tokens.all, 'list_contacts', { limit: 1 });
  expect(page1.ok).toBe(true);
  expect(page1.data!.contacts).toEqual([
    expect.objectContaining({
      id: first,
      status: 'customer',
      name: { untrusted: true, text: 'Pat Customer' },
      email: { untrusted: true, text: 'pat@example.com' },
      phone: null,
      company: { untrusted: true, text: 'Pat & Co' },
    }),
  ]);
  const page2 = await kit.call(w.tokens.all, 'list_contacts', { limit: 1, cursor: page1.data!.nextCursor });
  expect(page2.data!.contacts.map((c: { id: string }) => c.id)).toEqual([second]);
  expect(page2.data!.nextCursor).toBeNull();
});

it('refuses a page size over 100 as invalid input', async () => {
  const w = await kit.workspace();
  const r = await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.all, 'list_contacts', { limit: 101 }),
    { tool: 'list_contacts', companyIds: [w.companyId] },
  );
  expect(r.error?.message).toMatch(/limit/);
});
