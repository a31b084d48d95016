// docs/operating.md, done as an operator would, on a fresh PostgreSQL database and
// Redis: `sitegate migrate`, `sitegate admin` for the owner, workspace and website, `sitegate serve`
// in production mode, sign in, create a connection on the Developers page, call a tool; then the
// day-2 commands (connections list/rotate/revoke, Activity, retention), /readyz, /metrics, SIGTERM.
// Every command is a real child process; the password only ever travels on standard input.
import { plural } from '../../src/kernel/plural.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeMigrations } from '../../src/db/migrator.js';
import { uniqueTag } from '../helpers/db.js';
import { createDatabase, dropDatabase } from '../helpers/pg-admin.js';
import { run, sitegate, until } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

const server = process.env.DATABASE_URL;
const redis = process.env.REDIS_URL;
// The pending count is whatever the code ships: a new migration must not break the guide's test.
const migrations = codeMigrations().map((m) => m.tag);
const dbName = `sg_operating_${uniqueTag().toLowerCase()}`;
let databaseUrl = '';

beforeAll(async () => {
  if (!server || !redis) return;
  // A database of its own, created empty, as the guide's first step.
  databaseUrl = await createDatabase(server, dbName);
});
afterAll(async () => {
  if (server && redis) await dropDatabase(server, dbName);
});

const OWNER = { email: 'fern@fern-and-co.example', name: 'Fern Okafor', password: 'a long pass phrase 42' };

describe.runIf(server && redis)('docs/operating.md on PostgreSQL + Redis', () => {
  it('migrate, admin, serve, sign in, create a connection, call a tool; rotate, revoke, shut down', async () => {
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis!, NODE_ENV: 'production' };

    // A production server refuses an unmigrated database, and creates nothing.
    const early = await run(['serve'], { env: { ...env, PORT: String(await freePort()) } });
    expect(early.code).toBe(1);
    expect(early.err).toContain(
      `${plural(migrations.length, 'migration')} pending: ${migrations.join(', ')}.`,
    );
    expect(early.err).toContain('sitegate migrate');
    const dry = await run(['migrate', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`${plural(migrations.length, 'migration')} pending`);
    for (const tag of migrations) expect(dry.out).toContain(tag);
    const applied = await run(['migrate'], { env });
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain(`Applied ${plural(migrations.length, 'migration')}`);
    expect((await run(['migrate'], { env })).out).toContain('Nothing to apply');

    // The owner: no terminal here, so the password comes on stdin; without the flag it is refused.
    const noTty = await run(['admin', 'create-owner', '--email', OWNER.email, '--name', OWNER.name], { env });
    expect(noTty.code).toBe(1);
    expect(noTty.err).toContain('--password-stdin');
    const owner = await run(
      ['admin', 'create-owner', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin', '--json'],
      { env, stdin: `${OWNER.password}\n` },
    );
    expect(owner.code, owner.err).toBe(0);
    expect(owner.out).not.toContain(OWNER.password);
    const again = await run(
      ['admin', 'create-owner', '--email', OWNER.email, '--name', 'X', '--password-stdin'],
      {
        env,
        stdin: 'another long password\n',
      },
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');

    const ws = await run(
      [
        'admin',
        'create-workspace',
        '--name',
        'Fern & Co',
        '--owner',
        OWNER.email,
        '--plan',
        'starter',
        '--site-limit',
        '1',
        '--json',
      ],
      { env },
    );
    expect(ws.code, ws.err).toBe(0);
    const { companyId } = JSON.parse(ws.out) as { companyId: string };
    const site = await run(
      ['admin', 'create-website', '--workspace', companyId, '--name', 'Fern & Co', '--json'],
      {
        env,
      },
    );
    expect(site.code, site.err).toBe(0);
    const { websiteId } = JSON.parse(site.out) as { websiteId: string };
    // The plan's site limit (1) holds for the operator too: refused, and nothing was created.
    const second = await run(['admin', 'create-website', '--workspace', companyId, '--name', 'Second'], {
      env,
    });
    expect(second.code).toBe(1);
    expect(second.err).toContain('allows 1 site');
    expect(
      (await run(['admin', 'list-websites', '--workspace', companyId, '--json'], { env })).out,
    ).not.toContain('Second');

    // Serve (production mode, migrations current), with Prometheus scraping enabled.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const metricsToken = 'prometheus-scrape-token-1';
    const serving = sitegate(['serve'], {
      env: { ...env, PORT: String(port), METRICS_TOKEN: metricsToken, LOG_LEVEL: 'info' },
    });
    try {
      await until(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, 600);
      expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
        database: 'ok',
        redis: 'ok',
        schema: 'current',
      });

      // The owner signs in and creates a connection on the Developers page.
      const web = await signIn(base, OWNER.email, OWNER.password);
      const page = await web.post('/settings/advanced/developers/connections', {
        name: 'Claude Desktop',
        websiteId,
        reach: 'website',
        scopes: ['content:write'],
      });
      expect(page.status).toBe(303);
      const shown = await web.get(page.location!);
      const token = /<pre id="token-value">([^<]+)<\/pre>/.exec(shown.html)?.[1];
      expect(token).toMatch(/^sg_live_/);

      // An MCP client calls a tool with it.
      const client = new Client({ name: 'operator-check', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      const r = await client.callTool({ name: 'get_site_overview', arguments: {} });
      expect(r.structuredContent).toMatchObject({ ok: true });
      await client.close();

      // Day 2: the operator lists, rotates and revokes connections.
      const list = await run(['admin', 'connections', 'list', '--workspace', companyId, '--json'], { env });
      const [conn] = JSON.parse(list.out) as Array<{ id: string; prefix: string }>;
      expect(conn!.prefix).toBe(token!.slice(0, 12));
      expect(list.out).not.toContain(token!);
      const rotated = await run(['admin', 'connections', 'rotate', conn!.id, '--json'], { env });
      expect(rotated.code, rotated.err).toBe(0);
      const fresh = (JSON.parse(rotated.out) as { token: string }).token;
      expect((await postMcp(`${base}/api/mcp`, token!)).status).toBe(401);
      expect((await postMcp(`${base}/api/mcp`, fresh)).status).toBe(200);
      expect((await run(['admin', 'connections', 'revoke', conn!.id], { env })).code).toBe(0);
      expect((await postMcp(`${base}/api/mcp`, fresh)).status).toBe(401);
      const twice = await run(['admin', 'connections', 'revoke', conn!.id], { env });
      expect(twice.code).toBe(1);

      const activity = await run(['admin', 'activity', '--workspace', companyId, '--json'], { env });
      expect(JSON.parse(activity.out)).toEqual(
        expect.arrayContaining([expect.objectContaining({ tool: 'get_site_overview', outcome: 'allowed' })]),
      );
      expect((await run(['admin', 'plans'], { env })).out).toContain('(none)');
      expect((await run(['admin', 'retention', '--json'], { env })).code).toBe(0);

      // Prometheus can scrape the process.
      const metrics = await fetch(`${base}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(await metrics.text()).toMatch(
        /sitegate_tool_calls_total\{tool="get_site_overview",outcome="allowed"\} 1/,
      );
    } finally {
      serving.child.kill('SIGTERM');
    }
    const stopped = await serving.done;
    expect(stopped.code, stopped.err).toBe(0);
  }, 240_000);
});
