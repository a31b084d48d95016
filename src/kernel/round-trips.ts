// Round trips to the database and to Redis, counted for the benchmark (docs/performance.md): `npm run bench`
// reads them from /admin/stats around a leg and divides by the calls served. Off unless
// SITEGATE_COUNT_ROUND_TRIPS=1, so the hot path pays nothing in production.
export const roundTrips = { enabled: process.env.SITEGATE_COUNT_ROUND_TRIPS === '1', db: 0, redis: 0 };

type Queryable = { query: (...args: never[]) => unknown };

type Transactional = { transaction: (run: (tx: Queryable) => unknown) => unknown };

/**
 * Counts every statement a database client sends (pg Client, PGlite). PGlite runs a transaction's
 * statements on a transaction object of its own and sends BEGIN and COMMIT itself: those count too,
 * as they do on PostgreSQL, where the pool's client sends them.
 */
export function countQueries<T extends Queryable>(client: T): T {
  if (!roundTrips.enabled) return client;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    roundTrips.db += 1;
    return query(...args);
  };
  const t = client as unknown as Partial<Transactional>;
  if (typeof t.transaction === 'function') {
    const begin = t.transaction.bind(client) as Transactional['transaction'];
    t.transaction = (run) =>
      begin((tx) => {
        roundTrips.db += 2; // BEGIN and COMMIT (or ROLLBACK)
        return run(countQueries(tx));
      });
  }
  return client;
}

/** Counts every command an ioredis client sends (a MULTI/pipeline counts each command). */
export function countRedis<T extends { sendCommand: (...args: never[]) => unknown }>(redis: T): T {
  if (!roundTrips.enabled) return redis;
  const send = redis.sendCommand.bind(redis) as (...args: unknown[]) => unknown;
  (redis as { sendCommand: unknown }).sendCommand = (...args: unknown[]) => {
    roundTrips.redis += 1;
    return send(...args);
  };
  return redis;
}
