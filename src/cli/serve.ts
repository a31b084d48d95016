// `sitegate serve`: one process serving /api/mcp and the owner pages. With --demo, the first start
// seeds the demo workspace and every start prints how to connect a client.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { type Database, type Db, openDatabase } from '../db/client.js';
import { demoSeed } from '../db/schema.js';
import { DEMO_TOKENS_FILE, keepDemoTokens, keptDemoTokens } from '../demo/demo-tokens.js';
import { type Demo, seedDemo } from '../demo/seed.js';
import { ensureSchema } from '../db/migrator.js';
import { waitForDatabase } from '../db/start-wait.js';
import { runOp } from '../ops/admin-ops.js';
import { startControl } from '../ops/control.js';
import { createSitegate } from '../runtime.js';
import { releaseRunningClaims } from '../domain/idempotency/keys.js';
import { settleReservations } from '../domain/library/generate.js';
import { faultArmed, faultPoint } from '../kernel/fault.js';
import { clientConfig } from '../web/pages/snippets.js';
import { transaction } from '../db/transactions.js';
import { plural } from '../kernel/plural.js';

export type DemoOut = {
  baseUrl: string;
  mcpUrl: string;
  users: Record<'owner' | 'editor' | 'viewer', { email: string; password: string }>;
  websites: Demo['websites'];
  /** null on a start whose DATA_DIR does not hold the tokens the seeding start kept. */
  tokens: Pick<Demo['tokens'], 'default' | 'all' | 'workspace'> | null;
};

export async function serveCommand(opts: {
  demo?: boolean;
  demoOut?: string;
  idp?: boolean;
  migrate?: boolean;
}): Promise<void> {
  const config = loadConfig();
  // The development identity provider runs in this process (PGlite allows one process per DATA_DIR)
  // with --idp, and with the demo unless OAUTH_ISSUER names a real one: the protected-resource
  // metadata must always list an authorization server (MCP authorization spec, RFC 9728 §2).
  const runIdp = Boolean(opts.idp || (opts.demo && !config.oauthIssuer));
  if (runIdp) config.oauthIssuer = `http://127.0.0.1:${config.idpPort}`;
  // One process per embedded DATA_DIR (a second one would corrupt it): the control socket is taken
  // before the database is opened; `sitegate admin` and `backup` reach the database through it.
  let opened: (d: Database) => void = () => {};
  const ready = new Promise<Database>((r) => {
    opened = r;
  });
  const control = config.databaseUrl
    ? null
    : await startControl(
        config.dataDir,
        async (op, args) => runOp(op, { database: await ready, config, now: new Date() }, args),
        (err) => process.stderr.write(`operator command failed: ${(err as Error).stack}\n`),
      );
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: false,
    bounds: config.dbBounds,
  });
  // R-OPS-2: never start on a schema newer than this code; in production, never migrate
  // unless told to (`--migrate`, or `sitegate migrate` beforehand).
  try {
    // A PostgreSQL that is not up yet (started beside this process, restarting) is waited for.
    if (config.databaseUrl) {
      await waitForDatabase(database.db, {
        url: config.databaseUrl,
        waitMs: config.dbStartWaitMs,
        say: (line) => process.stderr.write(line),
      });
    }
    const applied = await ensureSchema(database, {
      production: config.production,
      apply: Boolean(opts.migrate),
    });
    if (applied.length)
      process.stderr.write(
        `Applied ${plural(applied.length, 'migration')}: ${applied.map((m) => m.tag).join(', ')}\n`,
      );
  } catch (err) {
    await database.close();
    await control?.close();
    throw err;
  }
  opened(database);
  const sg = await createSitegate(config, { database });
  // The embedded database has one process: reservations and idempotency claims left by a process that
  // died are settled now (on PostgreSQL, other processes may hold live ones: the background job settles
  // expired reservations, and a dead call's claim is taken over once its lease has run out).
  if (database.kind === 'pglite') {
    const refunded = await settleReservations(database.db, new Date(), true);
    if (refunded)
      sg.deps.services.log.warn({ refunded }, 'refunded credits held by calls that did not finish');
    const released = await releaseRunningClaims(database.db);
    if (released)
      sg.deps.services.log.warn({ released }, 'released idempotency keys held by calls that did not finish');
  }
  // Loaded only when it runs: oidc-provider serves development and tests, not production.
  const idp = runIdp
    ? await (await import('../auth/oauth/idp.js'))
        .startIdp({
          db: sg.deps.services.db,
          audience: config.oauthAudience,
          port: config.idpPort,
          limits: sg.deps.limits,
        })
        .catch((err: unknown) => {
          throw busy(err, 'IDP_PORT', '127.0.0.1', config.idpPort) ?? err;
        })
    : null;
  let demo: DemoOut | null = null;
  if (opts.demo) demo = await ensureDemo(sg.deps.services.db, config.baseUrl, config.dataDir);
  const { url } = await sg.listen().catch((err: unknown) => {
    throw busy(err, 'PORT', config.host, config.port) ?? err;
  });
  const log = sg.deps.services.log;
  log.info({ url, database: sg.database.kind, redis: Boolean(config.redisUrl) }, 'sitegate listening');
  if (demo) {
    if (opts.demoOut) {
      mkdirSync(path.dirname(path.resolve(opts.demoOut)), { recursive: true });
      writeFileSync(opts.demoOut, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
      chmodSync(opts.demoOut, 0o600);
    }
    process.stdout.write(demoBanner(demo, path.join(path.resolve(config.dataDir), DEMO_TOKENS_FILE)));
  }
  if (idp) process.stdout.write(`OAuth: development identity provider at ${idp.issuer}\n`);
  // Mail that cannot leave must not go unnoticed (R-REL-2): say it on every start.
  if (!config.smtpUrl) process.stderr.write(NO_SMTP_WARNING);
  if (config.trustProxyLegacy) process.stderr.write(TRUST_PROXY_LEGACY_WARNING);
  const fault = faultArmed();
  if (fault)
    process.stderr.write(
      `WARNING: test fault point armed (SITEGATE_FAULT=${fault}): this process will kill itself.\n`,
    );
  // SIGTERM: drain (/readyz 503, still serving), stop accepting, finish in-flight calls, flush
  // Activity, exit 0. A stalled database or Redis must not keep the process alive
  // past what the supervisor was promised: the deadline exits 1 whatever the orderly close awaits.
  const stop = async () => {
    const deadlineMs = config.shutdownDrainMs + config.shutdownTimeoutMs;
    log.info({ drainMs: config.shutdownDrainMs, deadlineMs }, 'shutting down');
    setTimeout(() => {
      log.error({ deadlineMs }, 'shutdown did not finish in time: exiting without it');
      process.exit(1);
    }, deadlineMs);
    await control?.close();
    await idp?.close();
    await sg.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * A port another process holds, said with the setting that moves it (docs/configuration.md); null for
 * any other error.
 */
function busy(err: unknown, setting: 'PORT' | 'IDP_PORT', host: string, port: number): Error | null {
  if ((err as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') return null;
  return new Error(
    `Port ${port} on ${host} is already in use (another Sitegate, or another program). Stop that ` +
      `process, or set ${setting} to a free port (e.g. ${setting}=${port + 10}).`,
  );
}

const NO_SMTP_WARNING = `
WARNING: SMTP_URL is not set: no email can leave this server.
  Invitations, documents and form notifications are kept in the outbox (status "queued") and tools
  report them as queued, not sent. Set SMTP_URL=smtp://user:pass@host:587 (and MAIL_FROM) to deliver
  them; queued messages are sent by the retry job once it is set.

`;

const TRUST_PROXY_LEGACY_WARNING = `
WARNING: TRUST_PROXY=1 now means "a proxy on this machine" (loopback addresses only).
  X-Forwarded-For from any other peer is ignored. Name your proxies instead:
  TRUST_PROXY=127.0.0.1 (same machine) or TRUST_PROXY=10.0.0.5,10.0.0.6 (the balancers' addresses).

`;

/**
 * Seeds the demo on the first start, in one transaction with its marker row (demo_seed): a start that
 * dies half-way leaves nothing, two processes starting at once seed it once (an advisory lock, then the
 * marker's primary key), and later starts read the sign-ins and websites from the database — on both
 * backends, whatever DATA_DIR holds. The tokens never enter the database: the seeding start keeps
 * them in DATA_DIR (src/demo/demo-tokens.ts), written before the seed commits, and a later start
 * without that file prints how to get a token instead (`tokens` is then null).
 */
async function ensureDemo(db: Db, baseUrl: string, dataDir: string): Promise<DemoOut> {
  const seedOnce = { none: 'the demo seed: its own advisory lock serialises first starts' };
  const out = await transaction(db, seedOnce, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_LOCK})`);
    const [seeded] = await tx.select().from(demoSeed).where(eq(demoSeed.id, 'demo'));
    if (seeded) {
      const kept = seeded.output as Pick<DemoOut, 'users' | 'websites'>;
      return { users: kept.users, websites: kept.websites, tokens: await keptDemoTokens(tx, dataDir) };
    }
    const d = await seedDemo(tx);
    const made = {
      users: {
        owner: { email: d.users.owner.email, password: d.users.owner.password },
        editor: { email: d.users.editor.email, password: d.users.editor.password },
        viewer: { email: d.users.viewer.email, password: d.users.viewer.password },
      },
      websites: d.websites,
    };
    const tokens = { default: d.tokens.default, all: d.tokens.all, workspace: d.tokens.workspace };
    faultPoint('demo-mid-seed');
    keepDemoTokens(dataDir, tokens);
    await tx.insert(demoSeed).values({ id: 'demo', output: made });
    return { ...made, tokens };
  });
  return { ...out, baseUrl, mcpUrl: `${baseUrl}/api/mcp` };
}

/** Any fixed key: serialises first starts of several processes on one database. */
const DEMO_LOCK = 716_310_010;

/** `tokensFile`: where this start keeps the demo's tokens (DATA_DIR/demo-tokens.json). */
function demoBanner(d: DemoOut, tokensFile: string): string {
  const head = `
Sitegate demo is running.

  MCP URL        ${d.mcpUrl}
  Owner sign-in  ${d.baseUrl}/login   ${d.users.owner.email} / ${d.users.owner.password}
`;
  const oauth = `Or sign in instead of pasting a token (OAuth, e.g. Claude Desktop through mcp-remote):
  npx -y mcp-remote ${d.mcpUrl}
then connect the assistant at ${d.baseUrl}/dashboard/connect (its first tool call shows the link).
`;
  if (!d.tokens)
    return `${head}  Token          not kept here: tokens are stored only as hashes, and this start's DATA_DIR
                 does not hold the ones the first start printed. Sign in and create a connection at
                 ${d.baseUrl}/settings/advanced/developers for a new token.

${oauth}
`;
  return `${head}  Token          ${d.tokens.default}   (default scopes: site:read, content:write)
  Other tokens   in ${tokensFile} (readable by you only):
                   "all"        every scope on the demo site: publishing (after your approval), customers,
                                bookings, images, domains, invitations
                   "workspace"  every scope on every site of the demo workspace: also creating sites

Paste into Cursor (~/.cursor/mcp.json); VS Code and Claude Desktop are in the README:

${JSON.stringify(clientConfig(d.mcpUrl, d.tokens.default), null, 2)}

${oauth}
Or try it with MCP Inspector:
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli ${d.mcpUrl} --header "Authorization: Bearer ${d.tokens.default}" --method tools/list

`;
}
