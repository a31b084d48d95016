// set_primary_domain: makes one verified, connected hostname the website's canonical address.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { uniqueTag } from '../helpers/db.js';
import { type Workspace, toolKit } from './kit.js';

const kit = toolKit();

/** The website's current primary (verified) and a second address in the given status. */
async function addDomains(w: Workspace, status: 'verified' | 'pending') {
  const tag = uniqueTag();
  const old = `${tag}.example`;
  const next = `shop.${tag}.example`;
  await kit.db.insert(domains).values([
    {
      id: newId('dom'),
      websiteId: w.websites.main,
      hostname: old,
      status: 'verified',
      verificationToken: 't',
      isPrimary: true,
      verifiedAt: new Date(),
    },
    {
      id: newId('dom'),
      websiteId: w.websites.main,
      hostname: next,
      status,
      verificationToken: 't',
      verifiedAt: status === 'verified' ? new Date() : null,
    },
  ]);
  return { old, next };
}

it('matches its contract snapshot', () => kit.expectContract('set_primary_domain'));

it('makes the verified hostname the only primary; the others redirect to it', async () => {
  const w = await kit.workspace();
  const { old, next } = await addDomains(w, 'verified');
  const r = await kit.call(w.tokens.all, 'set_primary_domain', { hostname: next });
  expect(r.data).toEqual({ hostname: next, primary: true, redirectsFrom: [old] });
  const rows = await kit.db.select().from(domains).where(eq(domains.websiteId, w.websites.main));
  expect(rows.filter((d) => d.isPrimary).map((d) => d.hostname)).toEqual([next]);
});

it('refuses an unverified hostname as primary and keeps the old primary', async () => {
  const w = await kit.workspace();
  const { next } = await addDomains(w, 'pending');
  await kit.expectRefusal(
    'conflict',
    () => kit.call(w.tokens.all, 'set_primary_domain', { hostname: next }),
    { tool: 'set_primary_domain', companyIds: [w.companyId] },
  );
});
