// Round trips to the database and to Redis, counted for the benchmark (docs/performance.md): `npm run bench`
// reads them from /admin/stats around a leg and divides by the calls served. Off unless
// SITEGATE_COUNT_ROUND_TRIPS=1, so the hot path pays nothing in production. Database statements are
// counted where every statement passes (src/db/session.ts).
export const roundTrips = { enabled: process.env.SITEGATE_COUNT_ROUND_TRIPS === '1', db: 0, redis: 0 };

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
