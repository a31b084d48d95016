// Readiness (R-OPS-4): `/readyz` answers 200 only while this process should get traffic —
// the database answers, the schema has no pending migration, and the process is not shutting down.
// `/healthz` only says the process is alive. Redis (when configured) holds only rate-limit counters:
// without it the process still serves, on per-process limits, so it stays ready and says
// `redis: 'degraded'`.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { schemaStatus } from '../db/migrator.js';

export type Check = 'ok' | 'unreachable' | 'off';
export type Readiness = {
  ready: boolean;
  database: Check;
  redis: 'ok' | 'degraded' | 'off';
  schema: 'current' | 'pending' | 'newer' | 'unknown';
  draining: boolean;
};

const within = <T>(ms: number, p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);

export function readinessProbe(opts: {
  database: Database;
  /** Answers at once while Redis is known to be down, else within its own bound. */
  redis?: { check(): Promise<'ok' | 'degraded'> };
  draining: () => boolean;
  timeoutMs?: number;
}): () => Promise<Readiness> {
  const timeout = opts.timeoutMs ?? 2_000;
  // The schema changes only when someone migrates: once current, look again every 30 s, not per probe.
  let schemaCheckedAt = 0;
  let schema: Readiness['schema'] = 'unknown';
  // One probe statement at a time: while the database stalls, each probe would otherwise leave one
  // more statement holding a pooled connection until the statement bound ends it. A probe that comes
  // while the last one is still unanswered waits for that one, within its own timeout.
  let probing: Promise<unknown> | null = null;
  const probe = () => {
    probing ??= opts.database.db.execute(sql`select 1`).finally(() => {
      probing = null;
    });
    return probing;
  };
  return async () => {
    const draining = opts.draining();
    const database: Check = await within(timeout, probe()).then(
      () => 'ok',
      () => 'unreachable',
    );
    const redis = opts.redis ? await opts.redis.check() : 'off';
    if (database === 'ok' && (schema !== 'current' || Date.now() - schemaCheckedAt > 30_000)) {
      const s = await within(timeout, schemaStatus(opts.database.db)).catch(() => null);
      schema = !s ? 'unknown' : s.newer ? 'newer' : s.pending.length ? 'pending' : 'current';
      schemaCheckedAt = Date.now();
    }
    // A newer schema is still served (an upgrade migrated it while this process runs the old code:
    // additive migrations keep old code working); pending migrations mean this code lacks tables.
    const ready = !draining && database === 'ok' && schema !== 'pending' && schema !== 'unknown';
    return { ready, database, redis, schema, draining };
  };
}
