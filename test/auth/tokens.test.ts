// API tokens at the endpoint edge: 401 with RFC 9728 metadata for no, wrong or revoked tokens;
// only the hash and a display prefix are ever stored (R-AUTH-2).
import { execFileSync } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, revokeConnection } from '../../src/auth/connections.js';
import { sha256Hex } from '../../src/kernel/tokens.js';
import { openDatabase } from '../../src/db/client.js';
import { seedDemo } from '../../src/demo/seed.js';
import { connections } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { newDataDir, withMigratedDatabase } from '../reliability/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const post = (headers: Record<string, string>, body: unknown = init, url = s.mcpUrl) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe('401 at the edge', () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ['no token', () => ({})],
    ['a malformed header', () => ({ authorization: 'Basic abc' })],
    ['a well-formed unknown token', () => ({ authorization: `Bearer sg_live_${'A'.repeat(32)}` })],
    ['a delivery token', () => ({ authorization: `Bearer sg_dlv_${'A'.repeat(32)}` })],
    ['a random JWT-looking string', () => ({ authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' })],
  ];
  it.each(cases)('%s gets 401 with WWW-Authenticate naming the metadata', async (_n, headers) => {
    const r = await post(headers());
    expect(r.status).toBe(401);
    const www = r.headers.get('www-authenticate') ?? '';
    expect(www).toMatch(/^Bearer /);
    expect(www).toContain(`resource_metadata="${s.url}/.well-known/oauth-protected-resource/api/mcp"`);
  });

  it('a revoked token gets 401 at its next call', async () => {
    const d = await s.seed();
    expect((await post({ authorization: `Bearer ${d.tokens.all}` })).status).toBe(200);
    await revokeConnection(s.sg.deps.services.db, d.users.owner.id, d.connections.all, new Date());
    expect((await post({ authorization: `Bearer ${d.tokens.all}` })).status).toBe(401);
  });

  it('serves RFC 9728 protected-resource metadata at both addresses', async () => {
    for (const p of [
      '/.well-known/oauth-protected-resource/api/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const m = (await (await fetch(s.url + p)).json()) as Record<string, unknown>;
      expect(m.resource).toBe(s.mcpUrl);
      expect(m.bearer_methods_supported).toEqual(['header']);
      expect(m.scopes_supported).toContain('crm:read');
    }
  });

  it('refuses a foreign Host or Origin (DNS rebinding) before authentication', async () => {
    const token = { authorization: `Bearer ${s.demo.tokens.default}` };
    expect((await post({ ...token, origin: 'http://evil.example.com' })).status).toBe(403);
    const host = new URL(s.url).host;
    // fetch cannot forge Host; a raw request can.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(host.split(':')[1]),
          path: '/api/mcp',
          method: 'POST',
          headers: { host: 'evil.example.com', ...token, 'content-type': 'application/json' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    // A name other than BASE_URL's host is answered as a customer's domain: no /api/mcp there at all.
    expect(status).toBe(404);
    expect((await post(token)).status).toBe(200);
  });
});

describe('token storage', () => {
  it('stores only the SHA-256 and a 12-character display prefix', async () => {
    const d = await s.seed();
    const [row] = await s.sg.deps.services.db
      .select()
      .from(connections)
      .where(eq(connections.id, d.connections.default));
    expect(d.tokens.default).toMatch(/^sg_live_[0-9A-Za-z]{32}$/);
    expect(row?.tokenHash).toBe(sha256Hex(d.tokens.default));
    expect(row?.tokenPrefix).toBe(d.tokens.default.slice(0, 12));
  });

  it('the plaintext appears nowhere in the database or the data directory after creation', async () => {
    // A data folder as a first start leaves it (the run's migrated copy), then the secrets written.
    const dir = withMigratedDatabase(newDataDir('tokens'));
    const database = await openDatabase({ dataDir: dir });
    const d = await seedDemo(database.db, { tag: 'plain' });
    const created = await createConnection(database.db, {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'leak check',
      scopes: ['crm:read'],
    });
    const token = created.token!;
    // Every table as text.
    const tables = (await database.db.execute(
      sql`select tablename from pg_tables where schemaname = 'public'`,
    )) as {
      rows: Array<{ tablename: string }>;
    };
    const rows = tables.rows;
    expect(rows.length).toBeGreaterThan(20);
    for (const { tablename } of rows) {
      const dump = await database.db.execute(sql.raw(`select * from "${tablename}"`));
      expect(JSON.stringify(dump)).not.toContain(token);
      expect(JSON.stringify(dump)).not.toContain(token.slice(8));
    }
    await database.close();
    // Every byte on disk: grep exits 1 when nothing matches.
    const grep = (needle: string) => {
      try {
        execFileSync('grep', ['-rqa', needle, dir]);
        return true;
      } catch {
        return false;
      }
    };
    expect(grep(token.slice(8))).toBe(false);
    expect(grep(sha256Hex(token))).toBe(true); // the check can find what is there
  }, 90_000);

  it('only the website owner can create a connection', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const before = await db.select().from(connections).where(eq(connections.companyId, d.companyId));
    for (const u of [d.users.editor, d.users.viewer]) {
      await expect(
        createConnection(db, { userId: u.id, websiteId: d.websites.main, name: 'nope' }),
      ).rejects.toMatchObject({
        code: 'owner_only',
        message: 'Only the website owner can create a connection.',
      });
    }
    await expect(
      createConnection(db, { userId: d.users.otherOwner.id, websiteId: d.websites.main, name: 'nope' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const after = await db.select().from(connections).where(eq(connections.companyId, d.companyId));
    expect(after.length).toBe(before.length);
  });

  it('only an owner of its website can revoke a connection; to anyone else it does not exist', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const live = async () =>
      (await db.select().from(connections).where(eq(connections.id, d.connections.all)))[0]!.revokedAt;
    for (const u of [d.users.editor, d.users.viewer, d.users.otherOwner]) {
      await expect(revokeConnection(db, u.id, d.connections.all, new Date())).rejects.toMatchObject({
        code: 'not_found',
        message: 'No connection with that id is available to this connection.',
      });
      expect(await live()).toBeNull();
    }
    await revokeConnection(db, d.users.owner.id, d.connections.all, new Date());
    expect(await live()).not.toBeNull();
  });

  it('scopes default to site:read + content:write and site:read is always on', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const def = await createConnection(db, {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'def',
    });
    expect(def.connection.scopes).toEqual(['site:read', 'content:write']);
    const none = await createConnection(db, {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'n',
      scopes: ['publish', 'made:up'],
    });
    expect(none.connection.scopes).toEqual(['site:read', 'publish']);
  });
});
