// Activity as the owner reads it on the Developers page (SPEC §8): the last 90 days of the owner's
// workspaces, filtered by connection and outcome, newest first, paginated by a keyset cursor.
import { type SQL, and, desc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity } from '../../db/schema.js';
import { ACTIVITY_RETENTION_DAYS } from './recorder.js';

export const ACTIVITY_PAGE_SIZE = 50;
export const OUTCOMES = ['allowed', 'denied', 'failed'] as const;

export type ActivityFilter = {
  companyIds: string[];
  connectionId?: string;
  outcome?: string;
  /** Show rows older than this id (the last id of the previous page). */
  before?: number;
};

export async function listActivity(db: Db, f: ActivityFilter, now: Date) {
  if (f.companyIds.length === 0) return { rows: [], next: null };
  const since = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000);
  const where: SQL[] = [inArray(activity.companyId, f.companyIds), gt(activity.createdAt, since)];
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
