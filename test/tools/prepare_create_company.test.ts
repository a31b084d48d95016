// prepare_create_company: a pending plan, anchored to the connection's own website, to create a free
// company owned by the connection's owner; no company exists until the plan is carried out.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { companies, pendingActions } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('prepare_create_company'));

it('creates a pending plan with the reviewed name on the anchor website; no company yet', async () => {
  const w = await kit.workspace();
  const name = `Harbor Catering ${w.companyId}`;
  const r = await kit.call(w.tokens.all, 'prepare_create_company', { name: `  ${name} ` });
  expect(r.ok).toBe(true);
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'create_company',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    creatorId: w.users.owner.id,
    subject: { name },
  });
  expect(await kit.db.select().from(companies).where(eq(companies.name, name))).toEqual([]);
});

it('is refused without workspace:write, and no plan is created', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'scope_missing',
    () => kit.call(w.tokens.default, 'prepare_create_company', { name: 'Nope Ltd' }),
    { tool: 'prepare_create_company', companyIds: [w.companyId] },
  );
  expect(await kit.db.select().from(companies).where(eq(companies.name, 'Nope Ltd'))).toEqual([]);
});
