// The draft revision: one counter per website that every change to its draft pages or sections moves
// on by one. A publish plan is pinned to it, and the console and list_draft_changes compare it with the
// published one. It moves only through draftBump below: bumpDraftRevision runs it on its own, and
// saveSection (sections/store.ts) embeds the same statement in its single save, so the edit hot path
// stays one round trip.
import { type Placeholder, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { websites } from '../../db/schema.js';

/**
 * The one statement that moves a website's draft revision on: an atomic increment, returning the new
 * value as `draft_rev`. Values or placeholders (for a fixed statement built once).
 */
export function draftBump(db: Db, websiteId: string | Placeholder, now: Date | Placeholder) {
  return db
    .update(websites)
    .set({ draftRev: sql`${websites.draftRev} + 1`, updatedAt: now as Date })
    .where(eq(websites.id, websiteId))
    .returning({ draftRev: websites.draftRev });
}

/** One more draft revision for the website, in the caller's transaction; returns the new value. */
export async function bumpDraftRevision(tx: Db, websiteId: string, now: Date): Promise<number> {
  const [row] = await draftBump(tx, websiteId, now);
  if (!row) throw new Error(`website ${websiteId} vanished`);
  return row.draftRev;
}
