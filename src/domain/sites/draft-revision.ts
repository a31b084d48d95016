// The draft revision: one counter per website that every change to its draft pages or sections moves
// on by one. A publish plan is pinned to it, and the console and list_draft_changes compare it with the
// published one. It moves only through draftBump below: bumpDraftRevision runs it on its own, and
// saveSection (sections/store.ts) embeds the same statement in its single save, and in the one
// statement that sends the saves a transaction held back, so the edit hot path stays one round trip.
import { type Placeholder, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { websites } from '../../db/schema.js';

/**
 * The one statement that moves a website's draft revision on: an atomic increment (by one, or by the
 * number of saves held back, sections/store.ts), returning the new value as `draft_rev`. Values or
 * placeholders (for a fixed statement built once).
 */
export function draftBump(
  db: Db,
  websiteId: string | Placeholder,
  now: Date | Placeholder,
  by: 1 | Placeholder = 1,
) {
  const step = by === 1 ? sql`1` : sql`${by}::integer`;
  return db
    .update(websites)
    .set({ draftRev: sql`${websites.draftRev} + ${step}`, updatedAt: now as Date })
    .where(eq(websites.id, websiteId))
    .returning({ draftRev: websites.draftRev });
}

/** One more draft revision for the website, in the caller's transaction; returns the new value. */
export async function bumpDraftRevision(tx: Db, websiteId: string, now: Date): Promise<number> {
  const [row] = await draftBump(tx, websiteId, now);
  if (!row) throw new Error(`website ${websiteId} vanished`);
  return row.draftRev;
}
