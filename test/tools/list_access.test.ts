// list_access: the members of the website with their roles, and its pending invitations.
import { expect, it } from 'vitest';
import { invitations } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { tokenFor } from '../business/fixtures.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_access'));

it("lists the website's members and its open invitations, never a link", async () => {
  const w = await kit.workspace();
  const expiresAt = new Date(Date.now() + 86_400_000);
  await kit.db.insert(invitations).values({
    id: newId('inv'),
    websiteId: w.websites.main,
    email: 'new.editor@example.com',
    level: 'editor',
    tokenHash: 'hash-of-the-link',
    invitedBy: w.users.owner.id,
    expiresAt,
  });
  const r = await kit.call(w.tokens.all, 'list_access');
  expect(r.ok).toBe(true);
  // The fixture adds the three members in one statement: their order among themselves is not defined.
  expect(r.data!.members).toHaveLength(3);
  expect(r.data!.members).toEqual(
    expect.arrayContaining([
      { name: 'owner', email: w.users.owner.email, role: 'owner' },
      { name: 'editor', email: w.users.editor.email, role: 'editor' },
      { name: 'viewer', email: w.users.viewer.email, role: 'viewer' },
    ]),
  );
  expect(r.data!.invitations).toEqual([
    { email: 'new.editor@example.com', level: 'editor', expiresAt: expiresAt.toISOString() },
  ]);
  expect(r.text).not.toContain('hash-of-the-link');
});

it("refuses an editor's connection as owner-only", async () => {
  const w = await kit.workspace();
  const editor = await tokenFor(kit.db, {
    userId: w.users.editor.id,
    websiteId: w.websites.main,
    companyId: w.companyId,
  });
  const r = await kit.expectRefusal('owner_only', () => kit.call(editor, 'list_access'), {
    tool: 'list_access',
    companyIds: [w.companyId],
  });
  expect(r.data).toBeUndefined();
});
