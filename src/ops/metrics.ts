// Prometheus metrics (R-OPS-4) with prom-client, one registry per process (tests run several
// instances in one process). Labels carry tool names, outcomes, refusal codes, limit names, plan
// states and HTTP status classes only: never an id, a token, an address or anything a person wrote.
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

export type Metrics = {
  registry: Registry;
  /** One tool call ended (called once per call, where its Activity line is written). */
  toolCall(
    tool: string,
    outcome: 'allowed' | 'denied' | 'failed',
    code: string | null,
    seconds: number,
  ): void;
  /** A rate limit refused a call; `limit` is `connection`, `workspace` or a bucket name. */
  rateLimited(limit: string): void;
  /** A call's limits were taken in this process's memory because Redis was unreachable. */
  rateLimitedLocally(): void;
  httpRequest(method: string, status: number): void;
  inFlight: Gauge;
};

const METHODS = new Set(['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
const SAFE_LABEL = /^[a-z0-9_:.-]{1,64}$/;
/** Tool names come from the registry, but an unknown tool's name is caller-chosen: bound it. */
const label = (s: string) => (SAFE_LABEL.test(s) ? s : 'other');

/** `redisUp`: with REDIS_URL, whether Redis answers now (src/limits/redis-health.ts). */
export function createMetrics(database: Database, opts: { redisUp?: () => boolean } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sitegate_' });
  const calls = new Counter({
    name: 'sitegate_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (allowed, denied, failed).',
    labelNames: ['tool', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sitegate_tool_call_duration_seconds',
    help: 'Time from the start of a tool call to its result, by tool and outcome.',
    labelNames: ['tool', 'outcome'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'sitegate_tool_refusals_total',
    help: 'Refused tool calls by tool and refusal code.',
    labelNames: ['tool', 'code'],
    registers: [registry],
  });
  const limited = new Counter({
    name: 'sitegate_rate_limit_refusals_total',
    help: 'Calls refused by a rate limit, by limit (connection, workspace or a named bucket).',
    labelNames: ['limit'],
    registers: [registry],
  });
  const local = new Counter({
    name: 'sitegate_rate_limit_local_total',
    help: 'Rate-limit checks taken in this process’s memory because Redis was unreachable.',
    registers: [registry],
  });
  const redisUp = opts.redisUp;
  if (redisUp)
    new Gauge({
      name: 'sitegate_redis_up',
      help: '1 while Redis answers (shared rate limits), 0 while limits are per process.',
      registers: [registry],
      collect() {
        this.set(redisUp() ? 1 : 0);
      },
    });
  const http = new Counter({
    name: 'sitegate_http_requests_total',
    help: 'HTTP requests by method and status class.',
    labelNames: ['method', 'status'],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'sitegate_http_requests_in_flight',
    help: 'HTTP requests being handled now.',
    registers: [registry],
  });
  // Read at scrape time; a database that does not answer leaves these out and sets database_up 0.
  const up = new Gauge({
    name: 'sitegate_database_up',
    help: '1 when the last scrape could read the database.',
    registers: [registry],
  });
  const plans = new Gauge({
    name: 'sitegate_plans',
    help: 'Reviewed plans by state (pending, approved, declined, redeemed, expired).',
    labelNames: ['state'],
    registers: [registry],
  });
  const outbox = new Gauge({
    name: 'sitegate_mail_outbox',
    help: 'Outgoing mail by status; `queued` is the outbox depth.',
    labelNames: ['status'],
    registers: [registry],
  });
  new Gauge({
    name: 'sitegate_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting, max).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const use = database.poolUse?.();
      if (!use) return;
      for (const [state, n] of Object.entries(use)) this.set({ state }, n);
    },
  });
  // One collect for the database-backed gauges, so a scrape runs two small grouped counts.
  const collectDatabase = async () => {
    plans.reset();
    outbox.reset();
    try {
      const planRows = await database.db.execute<{ state: string; n: number }>(sql`
        select case when status in ('pending', 'approved') and expires_at <= now() then 'expired'
                    else status end as state, count(*)::int as n
        from pending_actions group by 1`);
      const mailRows = await database.db.execute<{ status: string; n: number }>(
        sql`select status, count(*)::int as n from mail_outbox group by status`,
      );
      for (const state of ['pending', 'approved', 'declined', 'redeemed', 'expired']) plans.set({ state }, 0);
      for (const r of rowsOf<{ state: string; n: number }>(planRows))
        plans.set({ state: label(r.state) }, Number(r.n));
      outbox.set({ status: 'queued' }, 0);
      for (const r of rowsOf<{ status: string; n: number }>(mailRows))
        outbox.set({ status: label(r.status) }, Number(r.n));
      up.set(1);
    } catch {
      up.set(0);
    }
  };
  const metrics = registry.metrics.bind(registry);
  registry.metrics = async () => {
    await collectDatabase();
    return metrics();
  };

  return {
    registry,
    toolCall(tool, outcome, code, seconds) {
      const t = label(tool);
      calls.inc({ tool: t, outcome });
      latency.observe({ tool: t, outcome }, seconds);
      if (code) refusals.inc({ tool: t, code: label(code) });
    },
    rateLimited(limit) {
      limited.inc({ limit: label(limit) });
    },
    rateLimitedLocally() {
      local.inc();
    },
    httpRequest(method, status) {
      http.inc({ method: METHODS.has(method) ? method : 'other', status: `${Math.floor(status / 100)}xx` });
    },
    inFlight,
  };
}
