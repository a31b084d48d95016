// The `sitegate` CLI as a child process (node --import tsx src/main.ts …) against a started server:
// pair (approved over HTTP by the owner while it waits), tools, call, whoami, logout.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { sitegate } from '../helpers/process.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
const home = mkdtempSync(path.join(tmpdir(), 'sitegate-cli-'));
const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg'), CI: '1' };
const credentials = path.join(home, 'xdg', 'sitegate', 'credentials.json');

beforeAll(async () => {
  s = await startTestServer({ env: { PAIR_INTERVAL_SECONDS: '1' } });
});
afterAll(() => s?.close());

/** The CLI as a child process, with this file's HOME (credentials) and XDG_CONFIG_HOME. */
const cli = (args: string[]) => sitegate(args, { env });

async function waitFor(read: () => string, re: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 200; i++) {
    const m = re.exec(read());
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not seen: ${re}`);
}

describe('sitegate CLI', () => {
  it('pair waits for the owner, stores the token 0600; tools, call, whoami and logout use it', async () => {
    const run = cli(['pair', '--url', s.url, '--scopes', 'content:write,crm:read', '--name', 'cli-test']);
    const out = run.out;
    const m = await waitFor(out, /code: ([A-Z0-9]{4}-[A-Z0-9]{4})/);
    expect(out()).toContain(`${s.url}/dashboard/connect?code=`);

    const owner = await signIn(s.url, s.demo.users.owner.email, s.demo.users.owner.password);
    const ok = await owner.post('/dashboard/connect/pairing', {
      code: m[1]!,
      websiteId: s.demo.websites.main,
      reach: 'website',
      scopes: ['content:write'], // crm:read unticked
      decision: 'approve',
    });
    expect(ok.status).toBe(200);

    const paired = await run.done;
    expect(paired.code).toBe(0);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(credentials, 'utf8'));
    const cred = stored.servers[s.url];
    expect(cred.token).toMatch(/^sg_live_/);
    expect(cred.scopes).toEqual(['site:read', 'content:write']);
    const [conn] = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.name, 'cli-test'));
    expect(conn!.clientKind).toBe('cli');

    const tools = await cli(['tools']).done;
    expect(tools.code).toBe(0);
    expect(tools.out).toMatch(/^list_pages\s+/m);

    const call = await cli(['call', 'list_pages', '--json', '{}']).done;
    expect(call.code).toBe(0);
    const env1 = JSON.parse(call.out);
    expect(env1.ok).toBe(true);
    expect(env1.data.pages.map((p: { slug: string }) => p.slug)).toContain('home');

    const refused = await cli(['call', 'get_page', '--json', '{"pageId":"page_doesnotexist"}']).done;
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const who = await cli(['whoami']).done;
    expect(who.code).toBe(0);
    expect(who.out).toContain('content:write');
    expect(who.out).toContain(s.demo.websites.main);

    const bye = await cli(['logout']).done;
    expect(bye.code).toBe(0);
    expect(JSON.parse(readFileSync(credentials, 'utf8')).servers[s.url]).toBeUndefined();
    const after = await cli(['tools']).done;
    expect(after.code).toBe(1);
    expect(after.err).toContain('Not paired');
  }, 180_000); // seven child processes, each starting Node with tsx

  it('logout --revoke ends the connection on the server, then forgets the token', async () => {
    const demo = await s.seed();
    const token = demo.tokens.all;
    const cred = { url: s.url, token, scopes: [], reach: 'website', clientName: 'cli', pairedAt: '' };
    mkdirSync(path.dirname(credentials), { recursive: true });
    writeFileSync(credentials, JSON.stringify({ current: s.url, servers: { [s.url]: cred } }), {
      mode: 0o600,
    });
    const db = s.sg.deps.services.db;
    const revokedAt = async (id: string) =>
      (await db.select().from(connections).where(eq(connections.id, id)))[0]!.revokedAt;

    // A token that names no live connection revokes nothing.
    const stranger = await fetch(`${s.url}/v1/cli/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer sg_live_${'y'.repeat(32)}` },
    });
    expect(stranger.status).toBe(401);
    const bare = await fetch(`${s.url}/v1/cli/revoke`, { method: 'POST' });
    expect(bare.status).toBe(401);
    expect(await revokedAt(demo.connections.all)).toBeNull();
    expect(await revokedAt(demo.connections.default)).toBeNull();

    const bye = await cli(['logout', '--revoke']).done;
    expect(bye.code).toBe(0);
    expect(bye.out).toContain('Revoked the connection');
    expect(JSON.parse(readFileSync(credentials, 'utf8')).servers[s.url]).toBeUndefined();
    expect(await revokedAt(demo.connections.all)).not.toBeNull();
    const mcp = (t: string) =>
      fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await mcp(token)).status).toBe(401);
    // Only that token's own connection ended.
    expect(await revokedAt(demo.connections.default)).toBeNull();
    expect((await s.call(demo.tokens.default, 'list_pages')).ok).toBe(true);
    // A second revoke of the same token is refused and changes nothing.
    const twice = await fetch(`${s.url}/v1/cli/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(twice.status).toBe(401);
  }, 60_000);
});
