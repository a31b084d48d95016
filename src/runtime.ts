// Assembles one Sitegate process from a Config: database, services, limits, Activity, HTTP app and
// the background jobs (Activity retention, session clean-up). Tests build it in-process the same way.
import { rollUpAnalytics, rollUpToday } from './domain/analytics/rollup.js';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { safeError } from './ops/log-safety.js';
import { delegationKey, delegationSigner } from './auth/oauth/delegation.js';
import { registeredClientName } from './auth/oauth/idp-store.js';
import { jwtOAuthEdge } from './auth/oauth/jwt-edge.js';
import { accessTokenVerifier } from './auth/oauth/verify.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { activityRecorder } from './domain/activity/recorder.js';
import { rotateVisitorSalts } from './domain/analytics/visitor-keys.js';
import type { Clock, Services } from './domain/context.js';
import { settleReservations } from './domain/library/generate.js';
import { type BlobStore, databaseBlobStore, fileBlobStore, sweepBlobs } from './domain/library/blobs.js';
import { createMailer } from './domain/mail/mailer.js';
import { createDnsChecker } from './domain/domains/dns-check.js';
import { imageProviderFor } from './domain/library/image-provider.js';
import { createRateLimits } from './limits/rate-limits.js';
import { redisOptions, watchRedis } from './limits/redis-health.js';
import { createCaches } from './mcp/caches.js';
import type { McpEndpoint } from './mcp/endpoint.js';
import { createRegistry } from './mcp/registry.js';
import { createMetrics } from './ops/metrics.js';
import { readinessProbe } from './ops/readiness.js';
import { requestLogMixin } from './ops/request-context.js';
import { createApp } from './web/app.js';
import type { AppDeps } from './web/deps.js';
import { RETENTION } from './ops/retention.js';
import { countRedis } from './kernel/round-trips.js';
import { groupCommit } from './db/group-commit.js';
import { type Periodic, every } from './kernel/periodic.js';

/** The most single-transaction writes of one workspace that commit together (src/db/group-commit.ts). */
export const WRITES_PER_GROUP = 64;

export type Sitegate = {
  deps: AppDeps;
  database: Database;
  app: Hono;
  /** Starts listening; resolves with the actual base URL (port 0 picks a free port). */
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
};

export type RuntimeOptions = {
  clock?: Clock;
  log?: Logger;
  /** Where the default logger writes (stdout otherwise); tests read log lines from it. */
  logDestination?: pino.DestinationStream;
  memory?: boolean;
  database?: Database;
  /** Redis key prefix of the rate limits; processes sharing limits must share it (tests isolate with it). */
  limitPrefix?: string;
  /** Another blob store (tests give each server its own, so counts are not shared across test files). */
  blobs?: BlobStore;
  /** Another MCP endpoint behind the same edge (the benchmark's replaced v1 path). */
  mcpEndpoint?: (deps: AppDeps) => McpEndpoint;
  /**
   * false: listen() starts no periodic JOBS (tests run them by hand: in-process test servers share one
   * PostgreSQL database, and one server's mail sweep or retention must not act on another's rows).
   */
  backgroundJobs?: boolean;
};

/**
 * How long an idle keep-alive connection is kept. A proxy that reuses its connections must give up an
 * idle one before this (nginx's upstream `keepalive_timeout`, docs/deploy/nginx.conf): the side that
 * closes an idle connection must be the one that would send the next request on it, or a request
 * sent just as the other side closes is reset, and a proxy may not retry a POST it has sent.
 */
const KEEP_ALIVE_MS = 5_000;

/**
 * After the listener closes, how long a connection that sends nothing is kept open: a request a proxy
 * sent on it just before is on its way, and is answered rather than reset.
 */
const IDLE_GRACE_MS = 1_000;

type Listening = ReturnType<typeof serve>;

/**
 * Stops accepting connections, leaving the open ones be; resolves once the last one has ended. (Node's
 * http.Server#close also closes every idle connection at once, under requests on their way to it:
 * the listener is closed as a net.Server here.)
 */
function stopListening(s: Listening): Promise<void> {
  return new Promise<void>((resolve) => net.Server.prototype.close.call(s, () => resolve()));
}

/** Closes the connections with no request in progress (after IDLE_GRACE_MS: their peers sent nothing). */
function closeIdle(s: Listening): void {
  if ('closeIdleConnections' in s) s.closeIdleConnections();
}

/**
 * The part of SHUTDOWN_TIMEOUT_MS kept, after in-flight calls, for writing their Activity and
 * closing the database, so an orderly close of slow calls still ends before the hard deadline.
 */
const flushReserve = (timeoutMs: number) => Math.min(2_000, Math.floor(timeoutMs / 4));

/** `name`: tests run one job by name (`runJob`), never all of them against a shared database. */
type Job = { name: string; everyMs: number; run: (deps: AppDeps) => Promise<unknown> };

/** Periodic work of the running service. Other areas (plans, mail) add theirs. */
export const JOBS: Job[] = [
  // Activity, sessions, expired plans, pairings, analytics (also `sitegate admin retention`).
  ...RETENTION.map(
    (r): Job => ({
      name: r.name,
      everyMs: r.everyMs,
      run: (d) => r.run(d.services.db, d.services.clock(), d.services.config),
    }),
  ),
  // Blobs no asset references, older than the grace period (a crashed or failed import's bytes).
  {
    name: 'blobs',
    everyMs: 3_600_000,
    run: (d) => sweepBlobs(d.services.blobs, d.services.db, d.services.clock()),
  },
  // Credits reserved by generate_image calls that died with their process go back (lease expired).
  { name: 'credits', everyMs: 60_000, run: (d) => settleReservations(d.services.db, d.services.clock()) },
  // Queued mail is retried.
  { name: 'mail', everyMs: 30_000, run: (d) => d.services.mail?.deliverDue() ?? Promise.resolve(0) },
  // Days that are over are rolled up into the daily analytics the summaries read (rollup.ts).
  {
    name: 'analytics-rollup',
    everyMs: 600_000,
    run: (d) => rollUpAnalytics(d.services.db, d.services.clock()),
  },
  // Today's figures so far, so a summary reads the last minute's events alone (rollup.ts).
  { name: 'analytics-today', everyMs: 60_000, run: (d) => rollUpToday(d.services.db, d.services.clock()) },
  // Visitor salts of days that are over are deleted (R-VIS-3: unique visitors, daily rotating salt).
  {
    name: 'visitor-salts',
    everyMs: 3_600_000,
    run: (d) => rotateVisitorSalts(d.services.db, d.services.clock()),
  },
];

export async function createSitegate(config: Config, opts: RuntimeOptions = {}): Promise<Sitegate> {
  const log =
    opts.log ??
    pino(
      {
        level: config.logLevel,
        redact: ['req.headers.authorization', '*.token', '*.password'],
        // Errors are logged without the values they carry (SQL parameters, database details).
        serializers: { err: safeError },
        // Every line logged while a request is handled carries its id (R-OPS-4).
        mixin: requestLogMixin,
      },
      opts.logDestination,
    );
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      memory: opts.memory,
      bounds: config.dbBounds,
    }));
  // Redis holds only the rate-limit counters: while it is unreachable the limits are per process and
  // no call waits on it longer than REDIS_TIMEOUT_MS (src/limits/redis-health.ts).
  const redis = config.redisUrl
    ? countRedis(new Redis(config.redisUrl, redisOptions(config.redisTimeoutMs)))
    : undefined;
  const redisHealth = redis ? await watchRedis(redis, { timeoutMs: config.redisTimeoutMs, log }) : undefined;
  const clock = opts.clock ?? (() => new Date());
  const services: Services = {
    config,
    db: database.db,
    log,
    clock,
    blobs:
      opts.blobs ??
      (database.kind === 'postgres'
        ? databaseBlobStore(database.db)
        : fileBlobStore(path.join(config.dataDir, 'blobs'))),
    mail: createMailer({ db: database.db, log, clock, smtpUrl: config.smtpUrl, from: config.mailFrom }),
    dns: createDnsChecker(config.dnsServers),
    images: imageProviderFor(config),
  };
  const metrics = createMetrics(database, { redisUp: redisHealth?.up });
  let draining = false;
  const activity = activityRecorder(database.db, log);
  const deps: AppDeps = {
    services,
    registry: createRegistry(),
    limits: createRateLimits({
      perConnection: config.rateLimitPerConnection,
      perWorkspace: config.rateLimitPerWorkspace,
      redis: redis && redisHealth ? { client: redis, health: redisHealth } : undefined,
      prefix: opts.limitPrefix ?? 'sg',
      onRefused: (limit) => metrics.rateLimited(limit),
      onLocal: () => metrics.rateLimitedLocally(),
    }),
    activity,
    caches: createCaches(database.feed, database.cacheVersion),
    writeGroups: groupCommit(database.db, {
      max: WRITES_PER_GROUP,
      beforeCommit: (tx, lines) => activity.recordIn(tx, ...lines),
    }),
    observe: metrics.toolCall,
    ops: {
      metrics,
      readiness: readinessProbe({ database, redis: redisHealth, draining: () => draining }),
      draining: () => draining,
    },
  };
  if (config.oauthIssuer) {
    // R-AUTH-3: access tokens verified at the edge, then a signed delegation per request.
    deps.oauth = jwtOAuthEdge({
      db: database.db,
      clock: services.clock,
      verify: accessTokenVerifier({ issuer: config.oauthIssuer, audience: config.oauthAudience }),
      delegations: delegationSigner(delegationKey(config), config.baseUrl),
      clientName: (issuer, clientId) => registeredClientName(database.db, issuer, clientId),
      limitPending: (window, key) => deps.limits.tryWindow(window, key),
    });
  }
  if (opts.mcpEndpoint) deps.mcpEndpoint = opts.mcpEndpoint(deps);
  const app = createApp(deps);
  let server: ReturnType<typeof serve> | null = null;
  // Background jobs, each one run at a time; their runs are awaited on shutdown so none writes to a
  // closed database.
  const jobs: Periodic[] = [];

  return {
    deps,
    database,
    app,
    listen() {
      return new Promise((resolve, reject) => {
        const started = serve(
          { fetch: app.fetch, port: config.port, hostname: config.host },
          (info: AddressInfo) => {
            server = started;
            if ('keepAliveTimeout' in started) started.keepAliveTimeout = KEEP_ALIVE_MS;
            const host = config.host.includes(':') ? `[${config.host}]` : config.host;
            for (const job of opts.backgroundJobs === false ? [] : JOBS) {
              const periodic = every(job.everyMs, () => job.run(deps), {
                onError: (err) => log.error({ err, job: job.name }, 'background job failed'),
                onSkip: (ranForMs) =>
                  log.warn(
                    { job: job.name, ranForMs: Math.round(ranForMs) },
                    'background job still running from its last tick: this tick skipped',
                  ),
              });
              jobs.push(periodic);
            }
            resolve({ url: `http://${host}:${info.port}`, port: info.port });
          },
        );
        // A port already taken is a clear error for the caller, not an unhandled event.
        started.once('error', reject);
      });
    },
    /**
     * Graceful shutdown. First the drain: /readyz answers 503 and every answer
     * carries `Connection: close`, while the listener stays open and calls are served as usual, for
     * SHUTDOWN_DRAIN_MS, so a balancer that polls /readyz stops sending before anything is refused.
     * Then the listener closes, and every connection still open is left to end by itself: a request
     * that arrives on one is answered (and closes it), a busy one ends after its answer, and one still
     * silent after IDLE_GRACE_MS is closed. A connection is never closed under a request already on its
     * way: a proxy cannot retry a POST it sent (docs/reliability.md, "Rolling restarts"). What is left
     * near the end of SHUTDOWN_TIMEOUT_MS is cut, keeping time to flush Activity; running jobs end and
     * Activity is written. `sitegate serve` bounds the whole of it (src/cli/serve.ts).
     */
    async close() {
      draining = true;
      for (const j of jobs) j.stop();
      const s = server;
      if (s && config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
      if (s) {
        const inFlightMs = config.shutdownTimeoutMs - flushReserve(config.shutdownTimeoutMs);
        const closed = stopListening(s);
        const silent = setTimeout(() => closeIdle(s), Math.min(IDLE_GRACE_MS, inFlightMs)).unref();
        const bound = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), inFlightMs).unref());
        if ((await Promise.race([closed, bound])) === 'timeout') {
          log.warn({ timeoutMs: inFlightMs }, 'shutdown: cutting connections still busy');
          if ('closeAllConnections' in s) s.closeAllConnections();
          await closed;
        }
        clearTimeout(silent);
      }
      await Promise.all(jobs.map((j) => j.idle()));
      await deps.activity.close();
      services.mail?.close();
      redis?.disconnect();
      if (!opts.database) await database.close();
    },
  };
}
