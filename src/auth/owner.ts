// Which websites a signed-in user owns: the scope of every owner page (Developers settings, connect,
// delivery tokens). Connections and pairings are owner-only (SPEC §5), so pages list only these.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { websiteMembers, websites } from '../db/schema.js';

export type OwnedWebsite = { id: string; name: string; companyId: string };

export async function ownedWebsites(db: Db, userId: string): Promise<OwnedWebsite[]> {
  return db
    .select({ id: websites.id, name: websites.name, companyId: websites.companyId })
    .from(websites)
    .innerJoin(websiteMembers, eq(websiteMembers.websiteId, websites.id))
    .where(
      and(eq(websiteMembers.userId, userId), eq(websiteMembers.role, 'owner'), isNull(websites.deletedAt)),
    )
    .orderBy(websites.name);
}
