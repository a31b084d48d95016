// crm_update: sets status, handled, note or followUpAt on one customer record of this website.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { leads } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { toolKit } from './kit.js';

const kit = toolKit();

async function lead(websiteId: string) {
  const [row] = await kit.db
    .insert(leads)
    .values({
      id: newId('lead'),
      websiteId,
      status: 'new',
      name: 'Sam Visitor',
      email: 'sam@example.com',
      message: 'Breakfast for 20?',
    })
    .returning();
  return row!;
}

it('matches its contract snapshot', () => kit.expectContract('crm_update'));

it('sets the fields asked for, leaves the visitor fields alone and logs field names only', async () => {
  const w = await kit.workspace();
  const before = await lead(w.websites.main);
  const r = await kit.call(w.tokens.all, 'crm_update', {
    record: 'lead',
    id: before.id,
    status: 'contacted',
    handled: true,
    note: 'Call Sam back',
    followUpAt: '2030-01-02T09:00:00Z',
  });
  expect(r.ok).toBe(true);
  expect(r.data!.changed).toEqual(['status', 'handled', 'note', 'followUpAt']);
  const [after] = await kit.db.select().from(leads).where(eq(leads.id, before.id));
  expect(after).toEqual({
    ...before,
    status: 'contacted',
    handled: true,
    note: 'Call Sam back',
    followUpAt: new Date('2030-01-02T09:00:00Z'),
    updatedAt: after!.updatedAt,
  });
  const [line] = await kit.activity(w.companyId, 'crm_update');
  expect(line).toMatchObject({
    outcome: 'allowed',
    summary: 'Updated lead: status, handled, note, followUpAt',
  });
});

it("refuses another workspace's lead as not found, writing nothing", async () => {
  const w = await kit.workspace();
  const other = await kit.workspace();
  const theirs = await lead(w.websites.main);
  await kit.expectRefusal(
    'not_found',
    () => kit.call(other.tokens.all, 'crm_update', { record: 'lead', id: theirs.id, status: 'won' }),
    { tool: 'crm_update', companyIds: [other.companyId, w.companyId] },
  );
});
