// The owner's home (R-WEB-4): the websites a signed-in user owns, each
// with whether it is live, when it was last published, whether the draft has changes not yet live,
// and the verified primary domain visitors use. Read-only.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { domains, websites } from '../../db/schema.js';
import { ownedWebsiteIds } from '../../gate/owners.js';
import { timeZoneOf } from '../crm/booking-request.js';

export type HomeSite = {
  id: string;
  name: string;
  companyId: string;
  /** null while never published (or taken offline). */
  publishedAt: Date | null;
  /** Taken offline after it was live (not a draft that was never published). */
  offline: boolean;
  /** True when the draft was edited after the last publish (or the site was never published). */
  draftAhead: boolean;
  /** The verified primary custom domain, if any. */
  primaryHost: string | null;
  timeZone: string;
};

/**
 * One person, one time zone: every owner page shows times in the zone of the first website the
 * person owns (by name, then id; the home page's order), or UTC when they own none.
 */
export function personTimeZone(sites: ReadonlyArray<{ timeZone: string }>): string {
  return sites[0]?.timeZone ?? 'UTC';
}

/** personTimeZone for a user, read on its own (pages that do not list the sites' details). */
export async function ownerTimeZone(db: Db, userId: string): Promise<string> {
  const [first] = await db
    .select({ config: websites.config })
    .from(websites)
    .where(and(inArray(websites.id, ownedWebsiteIds(db, userId)), isNull(websites.deletedAt)))
    .orderBy(asc(websites.name), asc(websites.id))
    .limit(1);
  return personTimeZone(first ? [{ timeZone: timeZoneOf(first.config) }] : []);
}

export async function ownerSites(db: Db, userId: string): Promise<HomeSite[]> {
  const rows = await db
    .select({
      id: websites.id,
      name: websites.name,
      companyId: websites.companyId,
      publishedAt: websites.publishedAt,
      publishedRev: websites.publishedRev,
      draftRev: websites.draftRev,
      config: websites.config,
    })
    .from(websites)
    .where(and(inArray(websites.id, ownedWebsiteIds(db, userId)), isNull(websites.deletedAt)))
    .orderBy(asc(websites.name), asc(websites.id));
  const hosts = rows.length
    ? await db
        .select({ websiteId: domains.websiteId, hostname: domains.hostname })
        .from(domains)
        .where(
          and(
            inArray(
              domains.websiteId,
              rows.map((r) => r.id),
            ),
            eq(domains.status, 'verified'),
            eq(domains.isPrimary, true),
          ),
        )
    : [];
  const hostOf = new Map(hosts.map((h) => [h.websiteId, h.hostname]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    companyId: r.companyId,
    publishedAt: r.publishedRev === null ? null : r.publishedAt,
    offline: r.publishedRev === null && r.publishedAt !== null,
    draftAhead: r.publishedRev === null || r.draftRev !== r.publishedRev,
    primaryHost: hostOf.get(r.id) ?? null,
    timeZone: timeZoneOf(r.config),
  }));
}
