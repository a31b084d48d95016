// prepare_grant_access: a pending plan to invite one address as editor or viewer; nothing is sent yet.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { invitations, pendingActions } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('prepare_grant_access'));

it('creates a pending plan for the normalised address and level, and invites nobody yet', async () => {
  const w = await kit.workspace();
  const r = await kit.call(w.tokens.all, 'prepare_grant_access', {
    email: 'New.Editor@Example.com',
    level: 'editor',
  });
  expect(r.ok).toBe(true);
  expect(r.data).toMatchObject({ kind: 'grant_access', status: 'pending' });
  const [plan] = await kit.db.select().from(pendingActions).where(eq(pendingActions.id, r.data!.planId));
  expect(plan).toMatchObject({
    kind: 'grant_access',
    status: 'pending',
    websiteId: w.websites.main,
    connectionId: w.connections.all,
    creatorId: w.users.owner.id,
    subject: { email: 'new.editor@example.com', level: 'editor' },
  });
  expect(plan!.pinnedRevision).toMatch(/^access:[0-9a-f]{64}$/);
  expect(await kit.db.select().from(invitations).where(eq(invitations.websiteId, w.websites.main))).toEqual(
    [],
  );
});

it("refuses the level 'owner' as invalid input, creating no plan", async () => {
  const w = await kit.workspace();
  const r = await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.all, 'prepare_grant_access', { email: 'boss@example.com', level: 'owner' }),
    { tool: 'prepare_grant_access', companyIds: [w.companyId] },
  );
  expect(r.error?.message).toMatch(/owner/);
});
