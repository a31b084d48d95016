// Activity as an owner reads it (R-ACT-1: the Developers page and any other Activity view): the last
// 90 days, newest first, filtered by connection and outcome, paginated by a keyset cursor.
// Scope (R-ACT-1): only the websites the viewer owns. A line about a website counts when
// that website is the viewer's; a line with no website (refused before one was named) counts when its
// connection belongs to one of the viewer's websites. Owning one site of a workspace shows nothing
// about its other sites. The scope is decided here, from the viewer's id, never by the caller.
import { type SQL, and, desc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity, connections, websites } from '../../db/schema.js';
import { ownedWebsiteIds } from '../../gate/owners.js';
import { ACTIVITY_RETENTION_DAYS } from './recorder.js';

const ACTIVITY_PAGE_SIZE = 50;
export const OUTCOMES = ['allowed', 'denied', 'failed'] as const;

export type ActivityFilter = {
  /** The signed-in person reading: the scope is the websites they own. */
  viewerId: string;
  connectionId?: string;
  outcome?: string;
  /** Show rows older than this id (the last id of the previous page). */
  before?: number;
};

export async function listActivity(db: Db, f: ActivityFilter, now: Date) {
  const owned = ownedWebsiteIds(db, f.viewerId);
  const ownedConnections = db
    .select({ id: connections.id })
    .from(connections)
    .where(inArray(connections.websiteId, owned));
  // The workspaces of those websites first: it is what the Activity index starts with.
  const workspaces = db.select({ id: websites.companyId }).from(websites).where(inArray(websites.id, owned));
  const since = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000);
  const scope = or(
    inArray(activity.websiteId, owned),
    and(isNull(activity.websiteId), inArray(activity.connectionId, ownedConnections)),
  )!;
  const where: SQL[] = [inArray(activity.companyId, workspaces), scope, gt(activity.createdAt, since)];
  if (f.connectionId) where.push(eq(activity.connectionId, f.connectionId));
  if (f.outcome && (OUTCOMES as readonly string[]).includes(f.outcome))
    where.push(eq(activity.outcome, f.outcome));
  if (f.before && Number.isSafeInteger(f.before)) where.push(lt(activity.id, f.before));
  const rows = await db
    .select()
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.id))
    .limit(ACTIVITY_PAGE_SIZE + 1);
  const more = rows.length > ACTIVITY_PAGE_SIZE;
  const page = rows.slice(0, ACTIVITY_PAGE_SIZE);
  return { rows: page, next: more ? page[page.length - 1]!.id : null };
}
