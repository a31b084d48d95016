// Redis is cut under load (docs/reliability.md, "Redis"): a real `sitegate serve` reaches Redis through the
// fault proxy while eight clients call it back to back, reads and writes. With calls in flight the proxy
// cuts Redis three ways in turn: it resets every open connection and refuses new ones (Redis down), it
// resets them and lets the client reconnect (a restart), it stops forwarding (a partition). No call may
// fail because a rate-limit counter could not be reached: every one is answered, those in flight at the
// cut included, under the process's own limits, and the shared limits come back once Redis does. Needs
// PostgreSQL and Redis (CI's PostgreSQL + Redis pass).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/process.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';
import { type Child, backend, newDataDir, start, stop } from './harness.js';
import { callTool } from './pg-kit.js';

const databaseServer = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const CLIENTS = 8;
const CALLS_PER_CLIENT = 60;

let store: Awaited<ReturnType<typeof backend>>;
let proxy: TcpProxy;
let a: Child;

beforeAll(async () => {
  if (!databaseServer || !redisUrl) return;
  store = await backend();
  const target = new URL(redisUrl);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  target.host = proxy.address;
  a = await start(newDataDir('redis-cut'), {
    ...store.env,
    REDIS_URL: target.toString(),
    RATE_LIMIT_PER_CONNECTION: '100000',
    RATE_LIMIT_PER_WORKSPACE: '100000',
  });
}, 240_000);
afterAll(async () => {
  proxy?.heal();
  if (a) await stop(a);
  await proxy?.close();
  await store?.drop();
});

const redisState = async () => ((await (await fetch(`${a.base}/readyz`)).json()) as { redis: string }).redis;

it.runIf(databaseServer && redisUrl).each(['refuse', 'reset', 'stall'] as const)(
  'Redis cut (%s) with calls in flight: every call is answered, none fails for want of a counter',
  async (cut) => {
    await until(async () => (await redisState()) === 'ok' || null, 200);
    const site = a.demo.websites.main;
    const token = a.demo.tokens.all;
    let done = 0;
    const failures: string[] = [];
    const client = async (n: number) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i++) {
        const r =
          i % 4 === 0
            ? await callTool(a.base, token, 'create_page', { websiteId: site, title: `Cut ${cut} ${n}.${i}` })
            : await callTool(a.base, token, 'list_pages', { websiteId: site });
        done += 1;
        if (!r.ok) failures.push(`${r.status} ${r.text ?? ''}`.slice(0, 200));
      }
    };
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    // A quarter of the calls in, with every client mid-call: the cut.
    while (done < (CLIENTS * CALLS_PER_CLIENT) / 4) await new Promise((r) => setTimeout(r, 5));
    proxy[cut]();
    await clients;
    // Down or silent, Redis is reported degraded while the calls went on (reset, it is soon back).
    const during = await redisState();
    proxy.heal();
    expect(failures).toEqual([]);
    expect(done).toBe(CLIENTS * CALLS_PER_CLIENT);
    if (cut !== 'reset') expect(during).toBe('degraded');
  },
  180_000,
);
