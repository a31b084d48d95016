// Canonical-address redirects (R-DOM-4): a request
// whose Host is a verified, non-primary domain of a published website goes to that website's
// verified primary domain. Pending domains never redirect (a claim alone proves nothing).
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { domains, websites } from '../../db/schema.js';

const primary = alias(domains, 'primary_domain');

/** The primary hostname to redirect `host` to, or null when `host` should be served as it is. */
export async function canonicalHostFor(db: Db, host: string): Promise<string | null> {
  const [row] = await db
    .select({ target: primary.hostname })
    .from(domains)
    .innerJoin(
      websites,
      and(eq(websites.id, domains.websiteId), isNotNull(websites.publishedRev), isNull(websites.deletedAt)),
    )
    .innerJoin(
      primary,
      and(
        eq(primary.websiteId, domains.websiteId),
        eq(primary.isPrimary, true),
        eq(primary.status, 'verified'),
      ),
    )
    .where(and(eq(domains.hostname, host), eq(domains.status, 'verified'), eq(domains.isPrimary, false)))
    .limit(1);
  return row && row.target !== host ? row.target : null;
}
