// Whether Redis answers, as the rate limits and /readyz see it. Redis holds only rate-limit counters,
// so losing it must cost the shared limits, never the service: while it is unreachable every limit is
// taken in this process's memory (src/limits/rate-limits.ts), no call waits on Redis, and a background
// probe finds its return. Each change of state is logged once, not once per call or per reconnect.
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export type RedisState = 'ok' | 'degraded';

export type RedisHealth = {
  /** true while Redis answers: the shared limits are used. */
  up(): boolean;
  /** `p`, or a RedisTimeout once the Redis bound has passed. */
  bounded<T>(p: Promise<T>): Promise<T>;
  /** A Redis command failed (not a limit's refusal): limits go per-process until a probe answers. */
  failed(err: unknown): void;
  /** For /readyz: 'degraded' at once while down; else a PING within the bound. */
  check(): Promise<RedisState>;
};

class RedisTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
  }
}

/** While Redis is down, how often the background probe asks whether it is back. */
const PROBE_MS = 1_000;

/**
 * ioredis settings for a Redis that may go away: a command fails at once while the connection is down
 * (no offline queue), after `timeoutMs` when the server stops answering, and is never retried or
 * re-sent after a reconnect (its caller has moved on to the per-process limits; a late retry would
 * only count the call twice). Reconnects are tried at least once a second.
 */
export function redisOptions(timeoutMs: number): RedisOptions {
  return {
    lazyConnect: false,
    // Auto-pipelining: the rate-limit commands of calls made in the same tick share one socket write.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs),
    retryStrategy: (times: number) => Math.min(times * 100, PROBE_MS),
  };
}

/**
 * Watches `redis` (built with `redisOptions`). Waits, at most about a connect timeout, for the first
 * connection and PING, so a process starting beside a healthy Redis shares limits from its first call;
 * a process started while Redis is down serves at once, degraded.
 */
export async function watchRedis(
  redis: Redis,
  opts: { timeoutMs: number; log: Pick<Logger, 'warn'>; probeMs?: number },
): Promise<RedisHealth> {
  const { timeoutMs, log } = opts;
  let up = false;
  let stopped = false;
  let probing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let said: 'none' | 'down' = 'none';

  const bounded = <T>(p: Promise<T>): Promise<T> => {
    let t: NodeJS.Timeout | undefined;
    return Promise.race([
      p,
      new Promise<T>((_, reject) => {
        t = setTimeout(() => reject(new RedisTimeout(timeoutMs)), timeoutMs);
        t.unref();
      }),
    ]).finally(() => clearTimeout(t));
  };

  const markDown = (err: unknown) => {
    if (stopped) return;
    if (up || said === 'none') {
      up = false;
      said = 'down';
      // The reason is the driver's message (a socket error or the timeout): no call's data is in it.
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 200);
      log.warn(
        { redis: 'unreachable', reason },
        'Redis is unreachable: rate limits are per process (in memory) until it answers again',
      );
    }
    if (!timer) {
      timer = setInterval(() => void probe(), opts.probeMs ?? PROBE_MS);
      timer.unref();
    }
  };

  const markUp = () => {
    if (stopped) return;
    if (!up && said === 'down')
      log.warn({ redis: 'ok' }, 'Redis answers again: rate limits are shared again');
    up = true;
    said = 'none';
    if (timer) clearInterval(timer);
    timer = null;
  };

  // A connection may be open yet never served: accepted but its ready check unanswered, or silent
  // (a partition, a frozen host). Ending it politely would wait for the peer, so it is destroyed, and
  // ioredis connects anew.
  let unserved = 0;
  const drop = () => redis.stream?.destroy();
  const probe = (): Promise<void> => {
    if (probing || up || stopped) return probing ?? Promise.resolve();
    if (redis.status === 'connect') {
      unserved += 1;
      if (unserved >= 2) {
        unserved = 0;
        drop();
      }
      return Promise.resolve();
    }
    unserved = 0;
    probing = bounded(redis.ping())
      .then(markUp, (err) => {
        if (err instanceof RedisTimeout) drop();
        markDown(err);
      })
      .finally(() => {
        probing = null;
      });
    return probing;
  };

  // Without a listener ioredis reports each failed reconnect as an unhandled error; the state change
  // is logged once by markDown instead, with the last error as its reason.
  let lastError = 'connection lost';
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  // 'reconnecting' follows every lost connection except a deliberate close (shutdown), which ends with
  // 'end'. The return is left to the probe: a connection accepted is not yet a server that answers.
  redis.on('reconnecting', () => markDown(new Error(lastError)));
  redis.on('end', () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
  });

  // The first connection: bounded, then one PING decides the starting state.
  if (redis.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, Math.max(1_000, timeoutMs));
      function done() {
        clearTimeout(t);
        redis.off('ready', done);
        resolve();
      }
      redis.once('ready', done);
    });
  }
  if (redis.status === 'ready') await probe();
  else markDown(new Error(lastError));

  return {
    up: () => up,
    bounded,
    failed(err) {
      if (up) markDown(err);
    },
    async check() {
      if (!up) return 'degraded';
      try {
        await bounded(redis.ping());
        return 'ok';
      } catch (err) {
        markDown(err);
        return 'degraded';
      }
    },
  };
}
