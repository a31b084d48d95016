// The plan's site limit (R-SITE-2): one function, applied by the gate to
// every call of a tool declaring `createsSite` (without a lock, on the live count, before any work) and
// again by the committing transaction of create_site, import_site, migrate_site_from_url and the
// operator's site creation (company row locked, so concurrent creations serialise on it).
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { companies, websites } from '../db/schema.js';
import { Refusal } from '../kernel/errors.js';
import { plural } from '../kernel/plural.js';

/** Refuses with site_limit_reached when the workspace's plan has no room for one more site. */
export async function siteRoom(tx: Db, companyId: string, lock: boolean) {
  const q = tx
    .select({ name: companies.name, plan: companies.plan, siteLimit: companies.siteLimit })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [company] = lock ? await q.for('update') : await q;
  if (!company) throw new Error('company of the caller is missing');
  // A site the owner deleted (kept 30 days for a restore) does not count.
  const [used] = await tx
    .select({ n: count() })
    .from(websites)
    .where(and(eq(websites.companyId, companyId), isNull(websites.deletedAt)));
  const n = Number(used?.n ?? 0);
  if (n >= company.siteLimit) {
    throw new Refusal(
      'site_limit_reached',
      `The ${company.plan} plan allows ${plural(company.siteLimit, 'site')} and this workspace has ${n}. No site was created.`,
      'Merge into an existing site (import_site or migrate_site_from_url with mergeIntoWebsiteId). The owner can free a place by deleting a site in the site console (/dashboard/sites/<websiteId>), or ask the operator to raise the limit (sitegate admin set-plan); the agent can do neither.',
    );
  }
  return company;
}
