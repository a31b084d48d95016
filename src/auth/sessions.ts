// The stored side of signed-in web sessions that outlives a request: expired rows are purged by the
// retention sweep (ops/retention.ts). The cookie side (start, read, end, CSRF) is web/session.ts.
import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { webSessions } from '../db/schema.js';

export async function purgeSessions(db: Db, now: Date): Promise<void> {
  await db.delete(webSessions).where(lt(webSessions.expiresAt, now));
}
