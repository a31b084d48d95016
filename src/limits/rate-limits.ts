// Rate limits (SPEC §8): per connection and per workspace per minute, plus per-workspace tool buckets.
// rate-limiter-flexible: in memory by default, in Redis when REDIS_URL is set (shared by all processes).
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Caller } from '../kernel/caller.js';
import { Refusal } from '../kernel/errors.js';

export type LimitsConfig = {
  perConnection: number;
  perWorkspace: number;
  redis?: Redis;
  prefix?: string;
  /** Told which limit refused (`connection`, `workspace` or a bucket name), for /metrics. */
  onRefused?: (limit: string) => void;
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

export function createRateLimits(cfg: LimitsConfig): RateLimits {
  const prefix = cfg.prefix ?? 'sg';
  const make = (name: string, points: number, duration = 60): RateLimiterAbstract =>
    cfg.redis
      ? new RateLimiterRedis({
          storeClient: cfg.redis,
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

  return {
    async consume(caller, bucket) {
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
      await windowOf(w).reward(key, 1);
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
