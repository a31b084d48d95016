// Rate limits (R-LIM-1, R-LIM-2): per connection and per workspace per minute, plus per-workspace tool
// buckets. rate-limiter-flexible: in memory by default, in Redis when REDIS_URL is set (shared by all
// processes). Redis holds only these counters, so an outage costs the sharing, not the service: while Redis
// is unreachable (src/limits/redis-health.ts) every limit is taken in this process's memory, at the same
// configured numbers, and the shared ones resume once it answers again.
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Caller } from '../kernel/caller.js';
import { Refusal } from '../kernel/errors.js';
import type { RedisHealth } from './redis-health.js';

export type LimitsConfig = {
  perConnection: number;
  perWorkspace: number;
  /** Shared limits in Redis, used while `health` says it answers. */
  redis?: { client: Redis; health: RedisHealth };
  prefix?: string;
  /** Told which limit refused (`connection`, `workspace` or a bucket name), for /metrics. */
  onRefused?: (limit: string) => void;
  /** Told each time a call's limits were taken in this process because Redis was unreachable. */
  onLocal?: () => void;
};
export type Bucket = { key: string; perMinute: number };
/** A limit over a longer window (the published site's forms: per address, per website). */
export type Window = { key: string; points: number; seconds: number };

export type RateLimits = {
  /** Takes one call from each applicable bucket, or throws `rate_limited` naming the limit and the wait. */
  consume(caller: Caller, bucket?: Bucket): Promise<void>;
  /** Takes one point from a named bucket (pairing guesses, logins…). */
  consumeKey(bucket: Bucket, key: string): Promise<void>;
  /** Takes one point from a windowed limit: 0 when allowed, else the seconds until it allows again. */
  tryWindow(window: Window, key: string): Promise<number>;
  /** Gives back the point `tryWindow` took (an attempt that turned out fine, such as a right password). */
  refundWindow(window: Window, key: string): Promise<void>;
};

const CONSUME = 'sitegateConsumeLimits';
/** KEYS: the limits in order; ARGV: points and window seconds of each. Returns {refused index or 0, ms left}. */
const CONSUME_LUA = `
for i = 1, #KEYS do
  local points = tonumber(ARGV[2 * i - 1])
  local secs = tonumber(ARGV[2 * i])
  redis.call('set', KEYS[i], 0, 'EX', secs, 'NX')
  local consumed = redis.call('incrby', KEYS[i], 1)
  local ttl = redis.call('pttl', KEYS[i])
  if ttl == -1 then
    redis.call('expire', KEYS[i], secs)
    ttl = 1000 * secs
  end
  if consumed > points then return {i, ttl} end
end
return {0, 0}`;

export function createRateLimits(cfg: LimitsConfig): RateLimits {
  const local = limitsIn(undefined, cfg);
  if (!cfg.redis) return local;
  return withFallback(limitsIn(cfg.redis.client, cfg), local, cfg.redis.health, cfg.onLocal);
}

/**
 * Redis while it answers, within the Redis bound; else, and at once while it is known to be down, this
 * process's own limits. A limit's refusal is an answer, not a failure: it is never retried locally.
 * The local limits have the configured numbers, so one process alone is never more lenient than the
 * shared limit; N processes together may allow up to N times it while Redis is away.
 */
function withFallback(
  shared: RateLimits,
  local: RateLimits,
  health: RedisHealth,
  onLocal?: () => void,
): RateLimits {
  const either =
    <A extends unknown[], R>(pick: (l: RateLimits) => (...a: A) => Promise<R>, counted = true) =>
    async (...a: A): Promise<R> => {
      if (health.up()) {
        try {
          return await health.bounded(pick(shared)(...a));
        } catch (err) {
          if (err instanceof Refusal) throw err;
          health.failed(err);
        }
      }
      if (counted) onLocal?.();
      return pick(local)(...a);
    };
  return {
    consume: either((l) => l.consume),
    consumeKey: either((l) => l.consumeKey),
    tryWindow: either((l) => l.tryWindow),
    refundWindow: either((l) => l.refundWindow, false),
  };
}

/** The limits kept in one store: Redis when `redis` is given, else this process's memory. */
function limitsIn(redis: Redis | undefined, cfg: LimitsConfig): RateLimits {
  const prefix = cfg.prefix ?? 'sg';
  const make = (name: string, points: number, duration = 60): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({
          storeClient: redis,
          points,
          duration,
          keyPrefix: `${prefix}:rl:${name}`,
        })
      : new RateLimiterMemory({ points, duration, keyPrefix: `${prefix}:rl:${name}` });
  const perConnection = make('conn', cfg.perConnection);
  const perWorkspace = make('ws', cfg.perWorkspace);
  const buckets = new Map<string, RateLimiterAbstract>();
  const bucketOf = (b: Bucket) => {
    let l = buckets.get(b.key);
    if (!l) {
      l = make(`b:${b.key}`, b.perMinute);
      buckets.set(b.key, l);
    }
    return l;
  };

  const windows = new Map<string, RateLimiterAbstract>();
  const windowOf = (w: Window) => {
    const id = `${w.key}:${w.points}:${w.seconds}`;
    let l = windows.get(id);
    if (!l) {
      l = make(`w:${w.key}`, w.points, w.seconds);
      windows.set(id, l);
    }
    return l;
  };

  const take = async (
    limiter: RateLimiterAbstract,
    key: string,
    what: string,
    perMinute: number,
    name: string,
  ) => {
    try {
      await limiter.consume(key, 1);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      cfg.onRefused?.(name);
      const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      throw new Refusal(
        'rate_limited',
        `Rate limit reached: ${perMinute} calls per minute ${what}. Retry in ${seconds} s.`,
        `Wait ${seconds} seconds before the next call.`,
      );
    }
  };

  // On Redis, a call's limits (connection, workspace, tool bucket) are taken in one round trip: one
  // script consumes them in that order and stops at the first that is exhausted, as the separate
  // calls did, on the keys rate-limiter-flexible uses (a refusal has consumed its own point).
  if (redis && !(redis as { [CONSUME]?: unknown })[CONSUME]) {
    redis.defineCommand(CONSUME, { lua: CONSUME_LUA });
  }
  const consumeAll = async (steps: Array<{ key: string; points: number; what: string; name: string }>) => {
    const args = steps.flatMap((s) => [s.points, 60]);
    const run = (redis as unknown as Record<string, (...a: unknown[]) => Promise<[number, number]>>)[
      CONSUME
    ]!;
    const [refused, ttl] = await run.call(redis, steps.length, ...steps.map((s) => s.key), ...args);
    if (!refused) return;
    const step = steps[refused - 1]!;
    cfg.onRefused?.(step.name);
    const seconds = Math.max(1, Math.ceil(ttl / 1000));
    throw new Refusal(
      'rate_limited',
      `Rate limit reached: ${step.points} calls per minute ${step.what}. Retry in ${seconds} s.`,
      `Wait ${seconds} seconds before the next call.`,
    );
  };

  return {
    async consume(caller, bucket) {
      if (redis) {
        await consumeAll([
          {
            key: `${prefix}:rl:conn:${caller.connectionId}`,
            points: cfg.perConnection,
            what: 'for this connection',
            name: 'connection',
          },
          {
            key: `${prefix}:rl:ws:${caller.companyId}`,
            points: cfg.perWorkspace,
            what: 'for this workspace',
            name: 'workspace',
          },
          ...(bucket
            ? [
                {
                  key: `${prefix}:rl:b:${bucket.key}:${caller.companyId}`,
                  points: bucket.perMinute,
                  what: `for ${bucket.key} in this workspace`,
                  name: bucket.key,
                },
              ]
            : []),
        ]);
        return;
      }
      await take(perConnection, caller.connectionId, 'for this connection', cfg.perConnection, 'connection');
      await take(perWorkspace, caller.companyId, 'for this workspace', cfg.perWorkspace, 'workspace');
      if (bucket)
        await take(
          bucketOf(bucket),
          caller.companyId,
          `for ${bucket.key} in this workspace`,
          bucket.perMinute,
          bucket.key,
        );
    },
    async consumeKey(bucket, key) {
      await take(bucketOf(bucket), key, `for ${bucket.key}`, bucket.perMinute, bucket.key);
    },
    async tryWindow(w, key) {
      try {
        await windowOf(w).consume(key, 1);
        return 0;
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        cfg.onRefused?.(w.key);
        return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      }
    },
    async refundWindow(w, key) {
      // Never below zero: a point taken from the other store (Redis went or came back in between)
      // is not given back here, or this store would allow one more than its limit.
      const limiter = windowOf(w);
      const held = await limiter.get(key);
      if (held && held.consumedPoints > 0) await limiter.reward(key, 1);
    },
  };
}

/** The sign-in function's view of the limits (src/domain/users/sign-in.ts). */
export function signInLimiter(limits: RateLimits) {
  return {
    take: (w: Window, key: string) => limits.tryWindow(w, key),
    refund: (w: Window, key: string) => limits.refundWindow(w, key),
  };
}
