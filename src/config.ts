// Environment -> typed Config, validated once at start. `sitegate serve --help` lists these.
import { z } from 'zod';
import { parseTrustProxy } from './kernel/trusted-proxies.js';

/** One CRAWL_ALLOW_HOSTS entry: a host name, an IPv4 address or a [bracketed IPv6] address, and a port. */
const HOST_PORT = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]):\d{1,5}$/;

/**
 * How long the database may take, PostgreSQL only (src/db/pg-bounds.ts, src/db/deadline.ts): a call
 * waits on it no longer than its bound in all (a person waits for an interactive call; long work has
 * its own), every statement, connection attempt and transaction left idle has a bound, so a stalled or
 * vanished server fails calls instead of hanging them. Shared by Config and by callers that open a
 * database without one.
 */
export const DB_BOUNDS = {
  callTimeoutMs: 5_000,
  longWorkTimeoutMs: 600_000,
  statementTimeoutMs: 15_000,
  connectTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 60_000,
};
export type DbBounds = typeof DB_BOUNDS;

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  BASE_URL: z.url().optional(),
  DATA_DIR: z.string().default('./.sitegate'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(300),
  OAUTH_ISSUER: z.url().optional(),
  OAUTH_AUDIENCE: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Sitegate <no-reply@sitegate.localhost>'),
  SITEGATE_ADMIN_TOKEN: z.string().min(16).optional(),
  CRAWL_ALLOW_HOSTS: z
    .string()
    .optional()
    .refine((v) => (v ?? '').split(',').every((h) => !h.trim() || HOST_PORT.test(h.trim())), {
      message: 'a comma-separated list of host:port entries, e.g. staging.lan:8080,10.0.0.5:80',
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_CONNECTION: z.coerce.number().int().positive().default(120),
  RATE_LIMIT_PER_WORKSPACE: z.coerce.number().int().positive().default(600),
  IMAGE_PROVIDER_URL: z.url().optional(),
  IMAGE_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  DNS_SERVERS: z.string().optional(),
  SITE_CNAME_TARGET: z.string().min(3).default('sites.sitegate.app'),
  SITE_A_RECORD: z.ipv4().default('192.0.2.10'),
  IDP_PORT: z.coerce.number().int().min(0).max(65535).default(8788),
  DELEGATION_SECRET: z.string().min(32).optional(),
  PAIR_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  // Operations (R-OPS-4): production strictness, metrics scraping, graceful shutdown.
  NODE_ENV: z.string().optional(),
  METRICS_TOKEN: z.string().min(16).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  FORM_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(5),
  FORM_LIMIT_PER_WEBSITE: z.coerce.number().int().positive().default(30),
  VIEW_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(60),
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  VISITOR_MCP_READS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  VISITOR_MCP_SENDS_PER_DAY: z.coerce.number().int().positive().default(5),
  TRUST_PROXY: z
    .string()
    .default('0')
    .superRefine((v, ctx) => {
      try {
        parseTrustProxy(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  DB_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DB_BOUNDS.callTimeoutMs),
  DB_LONG_WORK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(86_400_000)
    .default(DB_BOUNDS.longWorkTimeoutMs),
  DB_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(DB_BOUNDS.statementTimeoutMs),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DB_BOUNDS.connectTimeoutMs),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(DB_BOUNDS.idleInTransactionTimeoutMs),
  DB_START_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
});

export type Config = {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** The longest a call waits on Redis; past it the call goes on under this process's own limits. */
  redisTimeoutMs: number;
  oauthIssuer?: string;
  oauthAudience: string;
  smtpUrl?: string;
  mailFrom: string;
  adminToken?: string;
  crawlAllowHosts: string[];
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  rateLimitPerConnection: number;
  rateLimitPerWorkspace: number;
  imageProviderUrl?: string;
  imageProviderTimeoutMs: number;
  /** DNS servers for domain checks (`ip` or `ip:port`); empty = the system's resolvers. */
  dnsServers: string[];
  siteCnameTarget: string;
  siteARecord: string;
  idpPort: number;
  delegationSecret?: string;
  pairIntervalSeconds: number;
  /** NODE_ENV=production: `serve` refuses pending migrations unless told to apply them. */
  production: boolean;
  /** Enables GET /metrics for `Authorization: Bearer <METRICS_TOKEN>` (Prometheus). */
  metricsToken?: string;
  /**
   * After SIGTERM, how long the process goes on serving while /readyz says 503, so a balancer that
   * polls it stops sending new calls before the listener closes.
   */
  shutdownDrainMs: number;
  /**
   * After the drain, the bound on the orderly close (in-flight calls, Activity, the database): past
   * it the process exits 1 whatever is still waiting.
   */
  shutdownTimeoutMs: number;
  /** Published-site form submissions allowed per sender address per 10 minutes (5). */
  formLimitPerAddress: number;
  /** Published-site form submissions allowed per website per hour (30). */
  formLimitPerWebsite: number;
  /** Page views of one website counted per sender address (IPv6: per /64) per hour (60); the rest are served, not counted. */
  viewLimitPerAddress: number;
  /** Days analytics events are kept before the retention sweep deletes them (400). */
  analyticsRetentionDays: number;
  /** Requests per sender address per minute to the published sites' MCP endpoints for visitors' assistants (60). */
  visitorMcpReadsPerMinute: number;
  /** Messages and booking requests per sender address per day through visitors' assistants (5). */
  visitorMcpSendsPerDay: number;
  /** Addresses and ranges of the proxies whose X-Forwarded-For is believed (src/web/client-address.ts). */
  trustProxy: string[];
  /** TRUST_PROXY=1 was given: read as loopback only, and `serve` says so at start. */
  trustProxyLegacy: boolean;
  /** Bounds on PostgreSQL statements, connection attempts and idle transactions. */
  dbBounds: DbBounds;
  /** How long `serve` waits for an unreachable PostgreSQL at start before giving up. */
  dbStartWaitMs: number;
};

export const ENV_HELP: Record<keyof z.infer<typeof Env>, string> = {
  PORT: 'port to listen on (8787)',
  HOST: 'interface to bind (127.0.0.1)',
  BASE_URL: 'public base address, used in links and OAuth metadata (http://HOST:PORT)',
  DATA_DIR: 'embedded database and blob store folder (./.sitegate)',
  DATABASE_URL: 'postgres://… to use PostgreSQL instead of the embedded PGlite',
  REDIS_URL: 'redis://… to keep rate limits in Redis (shared by every process)',
  REDIS_TIMEOUT_MS:
    'longest wait for Redis, in ms; past it (or while Redis is down) limits are per process (300)',
  OAUTH_ISSUER: 'OIDC issuer whose access tokens /api/mcp accepts',
  OAUTH_AUDIENCE: 'audience required in access tokens (the MCP URL)',
  SMTP_URL: 'smtp://… for outgoing mail; without it mail stays in the outbox and the log',
  MAIL_FROM: 'sender address of outgoing mail',
  SITEGATE_ADMIN_TOKEN: 'enables the operator API under /admin (at least 16 characters)',
  CRAWL_ALLOW_HOSTS:
    'host:port list (comma-separated) of private addresses migrate_site_from_url and import_site may fetch from, e.g. a staging copy (staging.lan:8080); empty by default: loopback and private ranges are refused',
  LOG_LEVEL: 'fatal | error | warn | info | debug | trace | silent (info)',
  RATE_LIMIT_PER_CONNECTION: 'calls per minute per connection (120)',
  RATE_LIMIT_PER_WORKSPACE: 'calls per minute per workspace (600)',
  IMAGE_PROVIDER_URL: 'HTTP image provider; without it images are rendered locally',
  IMAGE_PROVIDER_TIMEOUT_MS: 'how long to wait for the image provider, in ms (30000)',
  DNS_SERVERS: 'comma-separated DNS servers (ip or ip:port) for domain checks; default: the system ones',
  SITE_CNAME_TARGET: 'CNAME target a connected domain must point to (sites.sitegate.app)',
  SITE_A_RECORD: 'A record an apex domain must point to (192.0.2.10)',
  IDP_PORT: 'port of the development identity provider `sitegate idp` (8788)',
  DELEGATION_SECRET: 'key (32+ chars) signing OAuth delegations; default: a random key kept in DATA_DIR',
  PAIR_INTERVAL_SECONDS: 'minimum seconds between device-code polls (5)',
  NODE_ENV: 'production: refuse to start on pending migrations unless `serve --migrate`',
  METRICS_TOKEN: 'enables Prometheus /metrics for this bearer token (at least 16 characters)',
  SHUTDOWN_TIMEOUT_MS:
    'after the drain, how long the orderly close (in-flight calls, Activity) may take before exit 1, in ms (10000)',
  SHUTDOWN_DRAIN_MS: 'on SIGTERM, how long to keep serving while /readyz answers 503, in ms (0)',
  FORM_LIMIT_PER_ADDRESS: 'published-site form submissions per sender address per 10 minutes (5)',
  FORM_LIMIT_PER_WEBSITE: 'published-site form submissions per website per hour (30)',
  VIEW_LIMIT_PER_ADDRESS:
    'published-site page views counted per visitor address (IPv6: per /64) per website per hour (60)',
  ANALYTICS_RETENTION_DAYS: 'days analytics events are kept before the retention sweep deletes them (400)',
  VISITOR_MCP_READS_PER_MINUTE:
    "requests per sender address per minute to the published sites' MCP endpoint for visitors' assistants (60)",
  VISITOR_MCP_SENDS_PER_DAY:
    "messages and booking requests per sender address per day through visitors' assistants (5)",
  TRUST_PROXY:
    "your proxies' addresses or CIDR ranges (127.0.0.1,10.0.0.0/8): X-Forwarded-For is believed from them only (none)",
  DB_CALL_TIMEOUT_MS:
    'PostgreSQL: the most a call, page or form waits on the database in all, in ms; past it the call answers `unavailable` and nothing is changed (5000)',
  DB_LONG_WORK_TIMEOUT_MS:
    'PostgreSQL: the same bound for long work: imports, migrations from a URL, image generation (600000)',
  DB_STATEMENT_TIMEOUT_MS:
    'PostgreSQL: longest a statement may run on the server, in ms; the client gives up 1 s later (15000)',
  DB_CONNECT_TIMEOUT_MS: 'PostgreSQL: longest wait for a connection, new or from the pool, in ms (5000)',
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS:
    'PostgreSQL: a transaction left idle this long, in ms, is ended by the server (60000)',
  DB_START_WAIT_MS: 'PostgreSQL: how long `serve` waits for an unreachable database at start, in ms (60000)',
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const trust = parseTrustProxy(e.TRUST_PROXY);
  const baseUrl = (e.BASE_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  );
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    oauthIssuer: e.OAUTH_ISSUER,
    oauthAudience: e.OAUTH_AUDIENCE ?? `${baseUrl}/api/mcp`,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    adminToken: e.SITEGATE_ADMIN_TOKEN,
    crawlAllowHosts: (e.CRAWL_ALLOW_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    rateLimitPerConnection: e.RATE_LIMIT_PER_CONNECTION,
    rateLimitPerWorkspace: e.RATE_LIMIT_PER_WORKSPACE,
    imageProviderUrl: e.IMAGE_PROVIDER_URL,
    imageProviderTimeoutMs: e.IMAGE_PROVIDER_TIMEOUT_MS,
    dnsServers: (e.DNS_SERVERS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    siteCnameTarget: e.SITE_CNAME_TARGET.toLowerCase().replace(/\.$/, ''),
    siteARecord: e.SITE_A_RECORD,
    idpPort: e.IDP_PORT,
    delegationSecret: e.DELEGATION_SECRET,
    pairIntervalSeconds: e.PAIR_INTERVAL_SECONDS,
    production: e.NODE_ENV === 'production',
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    formLimitPerAddress: e.FORM_LIMIT_PER_ADDRESS,
    formLimitPerWebsite: e.FORM_LIMIT_PER_WEBSITE,
    viewLimitPerAddress: e.VIEW_LIMIT_PER_ADDRESS,
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    visitorMcpReadsPerMinute: e.VISITOR_MCP_READS_PER_MINUTE,
    visitorMcpSendsPerDay: e.VISITOR_MCP_SENDS_PER_DAY,
    trustProxy: trust.list,
    trustProxyLegacy: trust.legacy,
    dbBounds: {
      callTimeoutMs: e.DB_CALL_TIMEOUT_MS,
      longWorkTimeoutMs: e.DB_LONG_WORK_TIMEOUT_MS,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    dbStartWaitMs: e.DB_START_WAIT_MS,
  };
}
