// list_domains: the website's connected domains by hostname, with status and which one is primary.
import { expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { uniqueTag } from '../helpers/db.js';
import { tokenFor } from '../business/fixtures.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('list_domains'));

it("lists this website's domains by hostname only, never an id or a token", async () => {
  const w = await kit.workspace();
  const tag = uniqueTag();
  const verifiedAt = new Date('2026-01-02T03:04:05.000Z');
  await kit.db.insert(domains).values([
    {
      id: newId('dom'),
      websiteId: w.websites.main,
      hostname: `${tag}.example`,
      status: 'verified',
      verificationToken: 'secret-token',
      isPrimary: true,
      verifiedAt,
      createdAt: new Date(Date.now() - 1000),
    },
    { id: newId('dom'), websiteId: w.websites.main, hostname: `www.${tag}.example`, verificationToken: 't' },
    {
      id: newId('dom'),
      websiteId: w.websites.events,
      hostname: `events.${tag}.example`,
      verificationToken: 't',
    },
  ]);
  const r = await kit.call(w.tokens.all, 'list_domains');
  expect(r.ok).toBe(true);
  expect(r.data!.domains).toEqual([
    {
      hostname: `${tag}.example`,
      status: 'verified',
      primary: true,
      lastCheckedAt: null,
      verifiedAt: verifiedAt.toISOString(),
    },
    {
      hostname: `www.${tag}.example`,
      status: 'pending',
      primary: false,
      lastCheckedAt: null,
      verifiedAt: null,
    },
  ]);
  expect(r.text).not.toMatch(/dom_|secret-token/);
});

it("refuses an editor's connection as owner-only", async () => {
  const w = await kit.workspace();
  const editor = await tokenFor(kit.db, {
    userId: w.users.editor.id,
    websiteId: w.websites.main,
    companyId: w.companyId,
  });
  const r = await kit.expectRefusal('owner_only', () => kit.call(editor, 'list_domains'), {
    tool: 'list_domains',
    companyIds: [w.companyId],
  });
  expect(r.data).toBeUndefined();
});
