// update_business_name: renames the business (the workspace's name).
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const nameOf = async (companyId: string) =>
  (await kit.db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)))[0]!.name;

it('matches its contract snapshot', () => kit.expectContract('update_business_name'));

it('renames the workspace, trimmed', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.all, 'update_business_name', { name: '  Harbour Bread Co.  ' });
  expect(r.data).toEqual({ name: 'Harbour Bread Co.' });
  expect(await nameOf(w.companyId)).toBe('Harbour Bread Co.');
});

it('refuses a blank name (invalid_input), writing nothing', async () => {
  const w = await kit.workspace();
  const before = await nameOf(w.companyId);
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.all, 'update_business_name', { name: '   ' }),
    {
      tool: 'update_business_name',
      companyIds: [w.companyId],
    },
  );
  expect(await nameOf(w.companyId)).toBe(before);
});
