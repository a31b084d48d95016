// Prometheus /metrics (parsed as exposition text, moving with calls, no personal
// data or token in any label), request ids (response header, failed result, every log line of the
// request), and /readyz turning 503 when the database or Redis cannot be reached.
import { type Server, type Socket, connect, createServer } from 'node:net';
import { Writable } from 'node:stream';
import parsePrometheus from 'parse-prometheus-text-format';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { createSitegate } from '../../src/runtime.js';
import { freePort, postMcp, type TestServer, startTestServer } from '../helpers/server.js';

const METRICS_TOKEN = 'scrape-token-0123456789';
const lines: Array<Record<string, unknown>> = [];
const logSink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
    done();
  },
});

let s: TestServer;
beforeAll(async () => {
  // The image provider is a closed port: generate_image fails (a business failure, not a refusal).
  const closed = await freePort();
  s = await startTestServer({
    seed: false,
    env: {
      METRICS_TOKEN,
      RATE_LIMIT_PER_CONNECTION: '8',
      IMAGE_PROVIDER_URL: `http://127.0.0.1:${closed}`,
      IMAGE_PROVIDER_TIMEOUT_MS: '300',
    },
    logDestination: logSink,
  });
});
afterAll(() => s?.close());

type Family = ReturnType<typeof parsePrometheus>[number];
async function scrapeText(): Promise<string> {
  const r = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text();
}
function value(families: Family[], name: string, labels: Record<string, string>): number {
  const f = families.find((x) => x.name === name);
  const m = f?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  if (!m) return 0;
  return Number(m.value ?? m.count ?? 0);
}

async function callTool(token: string, name: string, args: Record<string, unknown> = {}) {
  const r = await postMcp(s.mcpUrl, token, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const body = (await r.json()) as {
    result: {
      isError?: boolean;
      structuredContent?: { ok: boolean; error?: { code: string } };
      content: Array<{ text: string }>;
    };
  };
  return { requestId: r.headers.get('x-request-id'), result: body.result };
}

describe('/metrics', () => {
  it('is refused without the scrape token, and with a wrong one', async () => {
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${s.url}/metrics`, {
      headers: { authorization: 'Bearer scrape-token-0123456780' },
    });
    expect(wrong.status).toBe(401);
  });

  it('parses as Prometheus text and moves with calls, refusals, rate limits and plans', async () => {
    const d = await s.seed();
    const beforeText = await scrapeText();
    const before = parsePrometheus(beforeText);
    expect((await callTool(d.tokens.default, 'list_sites')).result.structuredContent?.ok).toBe(true);
    // The default token lacks crm:read: a refusal by code.
    expect((await callTool(d.tokens.default, 'list_leads')).result.structuredContent?.error?.code).toBe(
      'scope_missing',
    );
    // A reviewed plan is created (pending).
    const plan = await callTool(d.tokens.all, 'prepare_publish', { websiteId: d.websites.main });
    expect(plan.result.structuredContent?.ok).toBe(true);
    // The per-connection limit is 8 a minute: the 9th call of one connection is refused.
    let limited = 0;
    for (let i = 0; i < 8; i++) {
      const r = await callTool(d.tokens.default, 'get_site_overview');
      if (r.result.structuredContent?.error?.code === 'rate_limited') limited++;
    }
    expect(limited).toBeGreaterThan(0);
    const afterText = await scrapeText();
    const after = parsePrometheus(afterText);

    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(delta('sitegate_tool_calls_total', { tool: 'list_sites', outcome: 'allowed' })).toBe(1);
    expect(delta('sitegate_tool_calls_total', { tool: 'list_leads', outcome: 'denied' })).toBe(1);
    expect(delta('sitegate_tool_refusals_total', { tool: 'list_leads', code: 'scope_missing' })).toBe(1);
    expect(delta('sitegate_tool_refusals_total', { tool: 'get_site_overview', code: 'rate_limited' })).toBe(
      limited,
    );
    expect(delta('sitegate_rate_limit_refusals_total', { limit: 'connection' })).toBe(limited);
    // The parser keeps only `le` of histogram samples, so the histogram's count is read from the text.
    expect(after.find((f) => f.name === 'sitegate_tool_call_duration_seconds')?.type).toBe('HISTOGRAM');
    const count = (text: string) =>
      Number(
        /^sitegate_tool_call_duration_seconds_count\{tool="list_sites",outcome="allowed"\} (\d+)$/m.exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count(afterText) - count(beforeText)).toBe(1);
    expect(delta('sitegate_plans', { state: 'pending' })).toBeGreaterThanOrEqual(1);
    expect(value(after, 'sitegate_database_up', {})).toBe(1);
    expect(after.find((f) => f.name === 'sitegate_mail_outbox')).toBeTruthy();
    expect(after.find((f) => f.name === 'sitegate_process_resident_memory_bytes')).toBeTruthy();

    // No personal data, id or token in any label value.
    const secrets = [d.tokens.default, d.tokens.all, d.users.owner.email, d.websites.main, d.companyId];
    for (const f of after)
      for (const m of f.metrics)
        for (const v of Object.values(m.labels ?? {})) {
          expect(v).not.toMatch(/sg_live_|@|^(site|co|conn|usr|page|sec)_/);
          for (const x of secrets) expect(v).not.toContain(x);
        }
  });
});

describe('request ids', () => {
  it('a failed call carries its request id in the result, the X-Request-Id header and every log line', async () => {
    const d = await s.seed();
    const r = await callTool(d.tokens.all, 'generate_image', {
      websiteId: d.websites.main,
      prompt: 'A loaf',
    });
    expect(r.result.isError).toBe(true);
    expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.result.content[0]!.text).toContain(`Request id: ${r.requestId}`);
    // Activity is flushed in batches; wait for the line to land.
    await s.sg.deps.activity.flush();
    // The failure's log line is found by the id the client was given, and no line about it lacks it.
    const failed = lines.filter((l) => l.msg === 'tool call failed' && l.requestId === r.requestId);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reqId).toBe(r.requestId);
    expect(lines.filter((l) => l.reqId === r.requestId).length).toBeGreaterThanOrEqual(1);
    const statusOf = await fetch(`${s.url}/healthz`);
    expect(statusOf.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('/readyz', () => {
  it('answers 200 while the embedded database answers, 503 once it is gone; /healthz stays 200', async () => {
    const database = await openDatabase({ memory: true });
    const sg = await createSitegate(loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }), {
      database,
      log: pino({ level: 'silent' }),
    });
    const { url } = await sg.listen();
    try {
      const ok = await fetch(`${url}/readyz`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ ready: true, database: 'ok', redis: 'off', schema: 'current' });
      // Without METRICS_TOKEN there is no /metrics at all.
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
      await database.close();
      const down = await fetch(`${url}/readyz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ ready: false, database: 'unreachable' });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await sg.close();
    }
  }, 90_000);

  const pgUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  it.runIf(pgUrl && redisUrl)(
    'turns 503 when PostgreSQL stops answering, 200 again when it is back; says Redis is degraded, still ready (PostgreSQL)',
    async () => {
      const pg = new URL(pgUrl!);
      const rd = new URL(redisUrl!);
      const pgProxy = await tcpProxy(Number(pg.port || 5432));
      const redisProxy = await tcpProxy(Number(rd.port || 6379));
      pg.host = `127.0.0.1:${pgProxy.port}`;
      rd.host = `127.0.0.1:${redisProxy.port}`;
      const database = await openDatabase({ databaseUrl: pg.toString(), migrate: false });
      const sg = await createSitegate(
        loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: pg.toString(), REDIS_URL: rd.toString() }),
        // As every in-process test server: no background sweeps of the shared database.
        { database, log: pino({ level: 'silent' }), backgroundJobs: false },
      );
      const { url } = await sg.listen();
      const ready = async () => {
        const r = await fetch(`${url}/readyz`);
        return { status: r.status, ...((await r.json()) as Record<string, unknown>) };
      };
      try {
        expect(await ready()).toMatchObject({ status: 200, database: 'ok', redis: 'ok', schema: 'current' });
        await pgProxy.stop();
        expect(await ready()).toMatchObject({ status: 503, database: 'unreachable', redis: 'ok' });
        await pgProxy.start();
        expect(await ready()).toMatchObject({ status: 200, database: 'ok' });
        // Redis holds only rate-limit counters: without it the process serves on per-process limits.
        await redisProxy.stop();
        expect(await ready()).toMatchObject({ status: 200, ready: true, database: 'ok', redis: 'degraded' });
      } finally {
        await redisProxy.start();
        await sg.close();
        await database.close();
        await pgProxy.stop();
        await redisProxy.stop();
      }
    },
  );
});

/** A TCP forwarder on 127.0.0.1 that can be cut (refusing and dropping every connection) and restored. */
async function tcpProxy(target: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await start();
  return {
    get port() {
      return port;
    },
    start,
    stop,
  };
}
