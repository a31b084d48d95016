// Which websites a signed-in user owns: the scope of every owner page (Developers settings, connect,
// delivery tokens). Connections and pairings are owner-only (R-SURF-2), so pages list only these.
import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { websites } from '../db/schema.js';
import { ownedWebsiteIds } from '../gate/owners.js';

export type OwnedWebsite = { id: string; name: string; companyId: string };

export async function ownedWebsites(db: Db, userId: string): Promise<OwnedWebsite[]> {
  return db
    .select({ id: websites.id, name: websites.name, companyId: websites.companyId })
    .from(websites)
    .where(and(inArray(websites.id, ownedWebsiteIds(db, userId)), isNull(websites.deletedAt)))
    .orderBy(websites.name);
}
