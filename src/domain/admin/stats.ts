// Operator figures: counts only, never personal data (the operator API, R-WEB-7).
import { gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { activity, companies, connections, mailOutbox, pendingActions, websites } from '../../db/schema.js';

const n = sql<number>`count(*)::int`;

export async function operatorStats(db: Db, now: Date) {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const one = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]?.n ?? 0);
  const outcomes = await db
    .select({ outcome: activity.outcome, n })
    .from(activity)
    .where(gte(activity.createdAt, dayAgo))
    .groupBy(activity.outcome);
  const mail = await db.select({ status: mailOutbox.status, n }).from(mailOutbox).groupBy(mailOutbox.status);
  return {
    companies: await one(db.select({ n }).from(companies)),
    websites: await one(db.select({ n }).from(websites)),
    liveConnections: await one(db.select({ n }).from(connections).where(isNull(connections.revokedAt))),
    pendingPlans: await one(
      db.select({ n }).from(pendingActions).where(sql`${pendingActions.status} in ('pending','approved')`),
    ),
    callsLast24h: Object.fromEntries(outcomes.map((o) => [o.outcome, Number(o.n)])),
    mailOutbox: Object.fromEntries(mail.map((m) => [m.status, Number(m.n)])),
  };
}
