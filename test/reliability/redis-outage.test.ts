// A Redis outage is not an outage (docs/reliability.md): two real `sitegate serve` processes share one
// PostgreSQL database and reach the real Redis through the fault proxy (test/helpers/tcp-proxy.ts).
// While Redis is silent (stall) or down (refuse), tool calls, a sign-in and a site form still work, each
// process refuses past the configured limit on its own, /readyz stays ready saying `redis: 'degraded'`,
// /metrics shows it, and the log says it once. Healed, the two processes share the limit again.
// Needs PostgreSQL (two processes, one database) and Redis: runs in CI's PostgreSQL + Redis pass.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, pages } from '../../src/db/schema.js';
import { until } from '../helpers/process.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';
import { signIn } from '../helpers/web.js';
import { MIN_FILL_MS } from '../../src/domain/crm/form-guard.js';
import { formOf, visitor } from '../visitors/visitor.js';
import { type Child, besides, backend, call, newDataDir, start, stop, withDb } from './harness.js';

const databaseServer = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const METRICS_TOKEN = 'metrics-token-for-the-redis-outage';
const PER_CONNECTION = 4;

/** Rejects when a request has had no answer in this long: a hung call fails the test, not the run. */
const ANSWER_BOUND_MS = 20_000;
const answered = <T>(p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('no answer: the request hung')), ANSWER_BOUND_MS).unref(),
    ),
  ]);

describe.runIf(databaseServer && redisUrl).sequential('Redis unreachable: limits go per process', () => {
  let store: Awaited<ReturnType<typeof backend>>;
  let proxy: TcpProxy;
  let a: Child;
  let b: Child;
  const people = visitor();

  beforeAll(async () => {
    store = await backend();
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    target.host = proxy.address;
    const env = {
      ...store.env,
      REDIS_URL: target.toString(),
      RATE_LIMIT_PER_CONNECTION: String(PER_CONNECTION),
      METRICS_TOKEN,
    };
    // One after the other: the first seeds the demo into the shared database, the second reuses it.
    a = await start(newDataDir('redis-a'), env);
    b = besides(await start(newDataDir('redis-b'), env), a);
  }, 240_000);
  afterAll(async () => {
    for (const c of [a, b]) if (c) await stop(c);
    await people.close();
    await proxy?.close();
    await store?.drop();
  });

  const outcome = async (
    c: Child,
    token: string,
    name = 'list_sites',
    args: Record<string, unknown> = {},
  ) => {
    const r = await answered(call(c, token, name, args));
    return r?.ok ? 'ok' : (r?.error?.code ?? 'no answer');
  };
  const ready = async (c: Child) => {
    const r = await answered(fetch(`${c.base}/readyz`));
    return { status: r.status, ...((await r.json()) as { ready: boolean; redis: string }) };
  };
  const metric = async (c: Child, name: string) => {
    const r = await answered(
      fetch(`${c.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    );
    const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(await r.text());
    return line ? Number(line[1]) : null;
  };
  /** Log lines that say Redis went (`unreachable`) or came back (`ok`); at most one per outage. */
  const said = (c: Child, state: 'unreachable' | 'ok') =>
    c.server
      .out()
      .split('\n')
      .filter((l) => l.includes(`"redis":"${state}"`)).length;
  const owner = () =>
    (a.demo as Child['demo'] & { users: { owner: { email: string; password: string } } }).users.owner;
  const pagesTitled = (title: string) =>
    withDb({ dataDir: a.dataDir, databaseUrl: store.databaseUrl }, (db) =>
      db.select().from(pages).where(eq(pages.title, title)),
    );

  /** The contact form, opened now and sent (with a message of its own) once a person could have typed it. */
  const contactForm = async (c: Child) => {
    const site = a.demo.websites.main;
    const page = await answered(people.get(`${c.base}/sites/${site}/contact`));
    expect(page.status).toBe(200);
    const form = formOf(page.html, '/_forms/contact');
    const opened = Date.now();
    return async (message: string) => {
      await new Promise((r) => setTimeout(r, Math.max(0, MIN_FILL_MS + 300 - (Date.now() - opened))));
      const res = await answered(
        people.post(c.base + form.action, {
          ...form.hidden,
          website: '',
          name: 'Ada Visitor',
          email: 'ada@example.com',
          phone: '',
          message,
        }),
      );
      expect(res.status).toBe(303);
      const written = await withDb({ dataDir: a.dataDir, databaseUrl: store.databaseUrl }, (db) =>
        db
          .select()
          .from(leads)
          .where(and(eq(leads.websiteId, site), eq(leads.message, message))),
      );
      expect(written).toHaveLength(1);
    };
  };

  /** Everything a person does, during an outage, on one process, with its own per-process limit. */
  async function servesDegraded(c: Child, what: string, send: (message: string) => Promise<void>) {
    const { tokens } = c.demo;
    expect(await outcome(c, tokens.default)).toBe('ok');
    const r = await ready(c);
    expect(r).toMatchObject({ status: 200, ready: true, redis: 'degraded' });
    // The owner signs in (the sign-in limits are windowed: per address and per email).
    await answered(signIn(c.base, owner().email, owner().password));
    // A visitor's message arrives (the form limits: per address, per website).
    await send(`Sent while Redis was ${what}`);
    // This process alone still holds each connection to the configured limit; the refused call writes nothing.
    const written = `Written while Redis was ${what}`;
    const refused = `Refused while Redis was ${what}`;
    const calls = [];
    for (let i = 0; i < PER_CONNECTION - 1; i += 1) calls.push(await outcome(c, tokens.all));
    calls.push(
      await outcome(c, tokens.all, 'create_page', { websiteId: c.demo.websites.main, title: written }),
    );
    calls.push(
      await outcome(c, tokens.all, 'create_page', { websiteId: c.demo.websites.main, title: refused }),
    );
    expect(calls).toEqual([...Array(PER_CONNECTION).fill('ok'), 'rate_limited']);
    expect(await pagesTitled(written)).toHaveLength(1);
    expect(await pagesTitled(refused)).toHaveLength(0);
    expect(await metric(c, 'sitegate_redis_up')).toBe(0);
    expect(await metric(c, 'sitegate_rate_limit_local_total')).toBeGreaterThanOrEqual(PER_CONNECTION + 1);
  }

  const healed = async (c: Child) => {
    await until(
      async () => (await ready(c)).redis === 'ok',
      150,
      () => `${c.server.out()}\n${c.server.err()}`.slice(-8000),
    );
    expect(await metric(c, 'sitegate_redis_up')).toBe(1);
  };

  it('while Redis answers, both processes are ready and share it', async () => {
    for (const c of [a, b]) {
      expect(await ready(c)).toMatchObject({ status: 200, ready: true, redis: 'ok' });
      expect(await metric(c, 'sitegate_redis_up')).toBe(1);
    }
  });

  it('a silent Redis (stall): calls, sign-in and forms go on, each limit per process', async () => {
    const send = await contactForm(a);
    proxy.stall();
    await servesDegraded(a, 'silent', send);
    // Said once, however many calls met the outage.
    expect(said(a, 'unreachable')).toBe(1);
    proxy.heal();
    await healed(a);
    expect(said(a, 'ok')).toBe(1);
  }, 120_000);

  it('a Redis that is down (refuse): the same, on the other process', async () => {
    const send = await contactForm(b);
    const before = said(b, 'unreachable');
    proxy.refuse();
    await servesDegraded(b, 'down', send);
    expect(said(b, 'unreachable')).toBe(before + 1);
    proxy.heal();
    await healed(b);
    await healed(a);
    expect(said(b, 'ok')).toBe(said(b, 'unreachable'));
  }, 120_000);

  it('healed: the two processes share the limit again', async () => {
    // Per process, each would allow this connection its own 4 calls; shared, the fifth is refused.
    const outcomes = [];
    for (let i = 0; i <= PER_CONNECTION; i += 1)
      outcomes.push(await outcome(i % 2 ? b : a, a.demo.tokens.workspace));
    expect(outcomes).toEqual([...Array(PER_CONNECTION).fill('ok'), 'rate_limited']);
    for (const c of [a, b]) expect(await metric(c, 'sitegate_redis_up')).toBe(1);
  }, 60_000);
});
