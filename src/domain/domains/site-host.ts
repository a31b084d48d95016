// Which published website a connected custom domain serves (R-DOM-2): a verified
// hostname of a website that is live. Pending claims serve nothing — a claim alone proves nothing.
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { domains, websites } from '../../db/schema.js';

export async function liveWebsiteForHost(db: Db, host: string): Promise<string | null> {
  const [row] = await db
    .select({ id: websites.id })
    .from(domains)
    .innerJoin(
      websites,
      and(eq(websites.id, domains.websiteId), isNotNull(websites.publishedRev), isNull(websites.deletedAt)),
    )
    .where(and(eq(domains.hostname, host), eq(domains.status, 'verified')))
    .limit(1);
  return row?.id ?? null;
}
