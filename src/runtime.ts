// Assembles one Sitegate process from a Config: database, services, limits, Activity, HTTP app and
// the background jobs (Activity retention, session clean-up). Tests build it in-process the same way.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { purgePairings } from './auth/pairing.js';
import { delegationKey, delegationSigner } from './auth/oauth/delegation.js';
import { jwtOAuthEdge } from './auth/oauth/jwt-edge.js';
import { accessTokenVerifier } from './auth/oauth/verify.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { activityRecorder, purgeActivity } from './domain/activity/recorder.js';
import type { Clock, Services } from './domain/context.js';
import { type BlobStore, databaseBlobStore, fileBlobStore } from './domain/library/blobs.js';
import { createMailer } from './domain/mail/mailer.js';
import { createDnsChecker } from './domain/domains/dns-check.js';
import { imageProviderFor } from './domain/library/image-provider.js';
import { createRateLimits } from './limits/rate-limits.js';
import { createCaches } from './mcp/caches.js';
import { createRegistry } from './mcp/registry.js';
import { purgeExpiredPlans } from './plans/store.js';
import { createApp } from './web/app.js';
import type { AppDeps } from './web/deps.js';
import { purgeSessions } from './web/session.js';

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
  memory?: boolean;
  database?: Database;
  /** Redis key prefix of the rate limits; processes sharing limits must share it (tests isolate with it). */
  limitPrefix?: string;
  /** Another blob store (tests give each server its own, so counts are not shared across test files). */
  blobs?: BlobStore;
};

type Job = { everyMs: number; run: (deps: AppDeps) => Promise<unknown> };

/** Periodic work of the running service. Other areas (plans, mail) add theirs. */
export const JOBS: Job[] = [
  { everyMs: 3_600_000, run: (d) => purgeActivity(d.services.db, d.services.clock()) },
  { everyMs: 3_600_000, run: (d) => purgeSessions(d.services.db, d.services.clock()) },
  // Reviewed plans: expired ones are garbage-collected (SPEC §3); queued mail is retried.
  { everyMs: 60_000, run: (d) => purgeExpiredPlans(d.services.db, d.services.clock()) },
  { everyMs: 30_000, run: (d) => d.services.mail?.deliverDue() ?? Promise.resolve(0) },
  { everyMs: 3_600_000, run: (d) => purgePairings(d.services.db, d.services.clock()) },
];

export async function createSitegate(config: Config, opts: RuntimeOptions = {}): Promise<Sitegate> {
  const log =
    opts.log ??
    pino({ level: config.logLevel, redact: ['req.headers.authorization', '*.token', '*.password'] });
  const database =
    opts.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, memory: opts.memory }));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
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
  const deps: AppDeps = {
    services,
    registry: createRegistry(),
    limits: createRateLimits({
      perConnection: config.rateLimitPerConnection,
      perWorkspace: config.rateLimitPerWorkspace,
      redis,
      prefix: opts.limitPrefix ?? 'sg',
    }),
    activity: activityRecorder(database.db, log),
    caches: createCaches(database.feed),
  };
  if (config.oauthIssuer) {
    // SPEC §5 rule 1: access tokens verified at the edge, then a signed delegation per request.
    deps.oauth = jwtOAuthEdge({
      db: database.db,
      clock: services.clock,
      verify: accessTokenVerifier({ issuer: config.oauthIssuer, audience: config.oauthAudience }),
      delegations: delegationSigner(delegationKey(config), config.baseUrl),
    });
  }
  const app = createApp(deps);
  let server: ReturnType<typeof serve> | null = null;
  const timers: NodeJS.Timeout[] = [];

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
            const host = config.host.includes(':') ? `[${config.host}]` : config.host;
            for (const job of JOBS) {
              const tick = () => job.run(deps).catch((err) => log.error({ err }, 'background job failed'));
              void tick();
              const t = setInterval(tick, job.everyMs);
              t.unref();
              timers.push(t);
            }
            resolve({ url: `http://${host}:${info.port}`, port: info.port });
          },
        );
        // A port already taken is a clear error for the caller, not an unhandled event.
        started.once('error', reject);
      });
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      await deps.activity.close();
      services.mail?.close();
      redis?.disconnect();
      if (!opts.database) await database.close();
    },
  };
}
