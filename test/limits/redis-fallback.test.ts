// The rate limits when Redis goes away (src/limits/redis-health.ts, src/limits/rate-limits.ts): the real
// Redis behind the fault proxy (test/helpers/tcp-proxy.ts). While it is refused or silent, every limit is
// taken in this process's memory at the configured numbers; once it answers, the shared counters are
// used again; each change is logged once. Needs Redis: runs in CI's PostgreSQL + Redis pass.
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/kernel/caller.js';
import { Refusal } from '../../src/kernel/errors.js';
import { type RateLimits, createRateLimits } from '../../src/limits/rate-limits.js';
import { type RedisHealth, redisOptions, watchRedis } from '../../src/limits/redis-health.js';
import { uniqueTag } from '../helpers/db.js';
import { until } from '../helpers/process.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)('rate limits while Redis is unreachable', () => {
  let proxy: TcpProxy;
  let client: Redis;
  let direct: Redis;
  let health: RedisHealth;
  let limits: RateLimits;
  let local = 0;
  const lines: Array<{ msg: string; redis?: string }> = [];
  const prefix = `fallback:${uniqueTag()}`;

  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    client = new Redis(`redis://${proxy.address}`, redisOptions(200));
    health = await watchRedis(client, { timeoutMs: 200, log, probeMs: 100 });
    limits = createRateLimits({
      perConnection: 3,
      perWorkspace: 100,
      redis: { client, health },
      prefix,
      onLocal: () => {
        local += 1;
      },
    });
    direct = new Redis(redisUrl!);
  });
  afterAll(async () => {
    client?.disconnect();
    direct?.disconnect();
    await proxy?.close();
  });

  const caller = (connectionId: string) => ({ connectionId, companyId: `co-${connectionId}` }) as Caller;
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e) => (e instanceof Refusal ? e.code : `error: ${(e as Error).message}`),
    );
  const take = async (who: string, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i += 1) out.push(await outcome(limits.consume(caller(who))));
    return out;
  };
  const shared = async (who: string) => Number(await direct.get(`${prefix}:rl:conn:${who}`));
  const said = (redis: string) => lines.filter((l) => l.redis === redis).length;

  it('uses the shared counters while Redis answers', async () => {
    expect(health.up()).toBe(true);
    expect(await take('a', 2)).toEqual(['ok', 'ok']);
    expect(await shared('a')).toBe(2);
    expect(local).toBe(0);
    expect(await health.check()).toBe('ok');
  });

  it('refused: calls go on under per-process limits, refused past the configured limit', async () => {
    proxy.refuse();
    // Each call is answered; the connection's 3 calls are counted again in this process's memory.
    expect(await take('a', 4)).toEqual(['ok', 'ok', 'ok', 'rate_limited']);
    expect(health.up()).toBe(false);
    expect(await health.check()).toBe('degraded');
    expect(local).toBeGreaterThanOrEqual(4);
    // The windowed limits (sign-in, pairing, forms) and named buckets too.
    const w = { key: 'login_email', points: 2, seconds: 600 };
    expect([await limits.tryWindow(w, 'x'), await limits.tryWindow(w, 'x')]).toEqual([0, 0]);
    expect(await limits.tryWindow(w, 'x')).toBeGreaterThan(0);
    const bucket = { key: 'pair_start', perMinute: 1 };
    expect(await outcome(limits.consumeKey(bucket, 'k'))).toBe('ok');
    expect(await outcome(limits.consumeKey(bucket, 'k'))).toBe('rate_limited');
    // Nothing reached Redis meanwhile.
    expect(await shared('a')).toBe(2);
    expect(said('unreachable')).toBe(1);
  });

  it('a refund never lifts a local limit above its configured number', async () => {
    const w = { key: 'login_address', points: 2, seconds: 600 };
    // Refunds of points this store never took (taken on Redis before it went) are not given back.
    await limits.refundWindow(w, 'y');
    await limits.refundWindow(w, 'y');
    // A right password gives its own point back: the allowance is whole again, and no more than that.
    expect(await limits.tryWindow(w, 'y')).toBe(0);
    await limits.refundWindow(w, 'y');
    expect([await limits.tryWindow(w, 'y'), await limits.tryWindow(w, 'y')]).toEqual([0, 0]);
    expect(await limits.tryWindow(w, 'y')).toBeGreaterThan(0);
  });

  it('healed: the shared counters are used again, and the return is logged once', async () => {
    proxy.heal();
    await until(() => health.up(), 100);
    const before = local;
    expect(await take('a', 2)).toEqual(['ok', 'rate_limited']);
    expect(await shared('a')).toBe(4);
    expect(local).toBe(before);
    expect(said('unreachable')).toBe(1);
    expect(said('ok')).toBe(1);
  });

  it('stalled (a silent partition): the wait is bounded, then calls go on per process', async () => {
    proxy.stall();
    // The first call waits at most the bound, the next ones not at all; none hangs.
    expect(await take('b', 4)).toEqual(['ok', 'ok', 'ok', 'rate_limited']);
    expect(health.up()).toBe(false);
    expect(await health.check()).toBe('degraded');
    proxy.heal();
    await until(() => health.up(), 100);
    expect(await take('c', 1)).toEqual(['ok']);
    expect(await shared('c')).toBe(1);
    expect(said('unreachable')).toBe(2);
    expect(said('ok')).toBe(2);
  });
});
