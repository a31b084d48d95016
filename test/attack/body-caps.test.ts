// Attack suite, oversized bodies (R-SEC-1): every route refuses a body over its cap with 413
// before the body is read — declared or streamed without a length — and nothing is written.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages, pairings, users, webSessions } from '../../src/db/schema.js';
import { BODY_CAPS } from '../../src/web/body-caps.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { webClient } from '../helpers/web.js';
import { streamBody } from './stream.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
/** Bounded: a streamed body is never sent past this, whatever the server does. */
const MAX_SENT = 40 * 1024 * 1024;

describe('request-body caps', () => {
  it('pairing start: a streamed and a declared oversized JSON body are 413, no pairing row', async () => {
    const clientName = `huge-${Math.random().toString(36).slice(2)}`;
    const head = `{"scopes":["site:read"],"clientName":"${clientName}","pad":"`;
    for (const declare of [false, true]) {
      const r = await streamBody(`${s.url}/v1/cli/pair/start`, {
        head,
        tail: '"}',
        total: declare ? 200 * 1024 * 1024 : MAX_SENT,
        declare,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, `declared: ${declare}`).toBe(413);
      expect(JSON.parse(r.body)).toMatchObject({ error: 'payload_too_large' });
      // Refused at the cap, not after reading what was sent.
      expect(r.sent).toBeLessThan(declare ? 1024 * 1024 : 8 * 1024 * 1024);
    }
    // Just over the cap, in one ordinary request: still refused (the cap is not only for giants).
    const over = await fetch(`${s.url}/v1/cli/pair/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['site:read'], clientName, pad: 'x'.repeat(BODY_CAPS.api) }),
    });
    expect(over.status).toBe(413);
    expect(await db().select().from(pairings).where(eq(pairings.clientName, clientName))).toEqual([]);
  });

  it('/login: a streamed oversized form with the right password is 413 and starts no session', async () => {
    const demo = await s.seed();
    const web = webClient(s.url);
    await web.get('/login');
    const form = new URLSearchParams({
      _csrf: web.csrf(),
      email: demo.users.owner.email,
      password: demo.users.owner.password,
    });
    const r = await streamBody(`${s.url}/login`, {
      head: `${form}&pad=`,
      total: MAX_SENT,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(413);
    expect(r.body).toContain('too large');
    expect(r.sent).toBeLessThan(8 * 1024 * 1024);
    const sessions = await db()
      .select({ id: webSessions.userId })
      .from(webSessions)
      .innerJoin(users, eq(users.id, webSessions.userId))
      .where(eq(users.email, demo.users.owner.email));
    expect(sessions).toEqual([]);
  });

  it('/api/mcp: over the MCP cap is 413 before authentication and before the tool runs', async () => {
    const demo = await s.seed();
    const title = `Huge ${Math.random().toString(36).slice(2)}`;
    const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_page","arguments":{"title":"${title}","pad":"`;
    for (const token of [demo.tokens.all, 'not-a-token']) {
      const r = await streamBody(s.mcpUrl, {
        head,
        tail: '"}}}',
        total: BODY_CAPS.mcp + 2 * 1024 * 1024,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: -32000 } });
    }
    const made = await db()
      .select()
      .from(pages)
      .where(and(eq(pages.websiteId, demo.websites.main), eq(pages.title, title)));
    expect(made).toEqual([]);
  });
});
