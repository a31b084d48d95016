// A rolling restart done as docs/operating.md says, under a steady stream of calls, loses none.
// Debian's nginx runs the guide's own docs/deploy/nginx.conf (test/helpers/nginx.ts: only its
// addresses, ports and certificate paths replaced) as a non-root foreground process, in front of two
// `sitegate serve` processes sharing one PostgreSQL database. Each process in turn is marked `down` and
// nginx reloaded, then it gets SIGTERM (it drains for the guide's SHUTDOWN_DRAIN_MS), a replacement
// starts on its port, and once that answers /readyz the `down` is removed and nginx reloaded. Every
// call must get its answer (no 502), and every write that was acknowledged must be in the database
// exactly once. The file's other promises are checked on the way: HSTS, the monitoring paths closed,
// the redirect to https, and `Host $http_host` (BASE_URL has a port here: with `$host`, 403).
//
// The load is what a busy site sees: sixteen clients back to back, half of them writing (two creating
// pages, six editing the same four sections, so both processes write the same rows), and each
// process is restarted twice, so four stops in all happen under it. The client opens one connection per
// call: nginx's reload closes its own idle client connections, which would measure the client's retry
// policy, not the backends'.
// PostgreSQL only (two processes share a database); nginx must be there where CI requires it.
import { readFileSync } from 'node:fs';
import { type IncomingMessage, get as httpGet } from 'node:http';
import { request } from 'node:https';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { pages, sections } from '../../src/db/schema.js';
import { hasNginx, markDown, prepareNginx, siteFile } from '../helpers/nginx.js';
import { freePort } from '../helpers/server.js';
import { until } from '../helpers/process.js';
import { type Child, backend, newDataDir, start, withDb } from './harness.js';

if (!hasNginx && process.env.SITEGATE_REQUIRE_BROWSER === '1') {
  throw new Error('nginx must run here (Debian: apt-get install nginx-light).');
}
const pgServer = process.env.DATABASE_URL;

/** The guide's environment values this test needs, read from the guide itself. */
const guide = readFileSync('docs/operating.md', 'utf8');
const drainMs = /SHUTDOWN_DRAIN_MS=(\d+)/.exec(guide)?.[1];

type Answer = {
  kind: 'read' | 'write' | 'edit';
  title?: string;
  sectionId?: string;
  status: number;
  ok: boolean;
  error?: string;
};

describe.runIf(pgServer && hasNginx)('rolling restart behind nginx, as docs/operating.md says', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const f of cleanups.reverse()) await f();
  });

  it('restarts both processes one at a time under steady reads and writes: no call lost, no write twice', async () => {
    expect(drainMs, 'the guide sets SHUTDOWN_DRAIN_MS').toBeDefined();
    const db = await backend();
    cleanups.push(() => db.drop());
    const ports = {
      a: await freePort(),
      b: await freePort(),
      https: await freePort(),
      http: await freePort(),
    };
    const host = `mcp.example.com:${ports.https}`;
    const env = (port: number): Record<string, string> => ({
      DATABASE_URL: db.databaseUrl!,
      REDIS_URL: process.env.REDIS_URL ?? '',
      PORT: String(port),
      BASE_URL: `https://${host}`,
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_DRAIN_MS: drainMs!,
      RATE_LIMIT_PER_CONNECTION: '1000000',
      RATE_LIMIT_PER_WORKSPACE: '1000000',
    });
    const dirs = { a: newDataDir('roll-a'), b: newDataDir('roll-b') };
    const procs: Record<'a' | 'b', Child> = {
      a: await start(dirs.a, env(ports.a)),
      b: await start(dirs.b, env(ports.b)),
    };
    cleanups.push(() => {
      for (const c of Object.values(procs))
        if (c.server.child.exitCode === null) c.server.child.kill('SIGKILL');
    });

    const nginx = prepareNginx(ports);
    let site = siteFile(ports, nginx.dir);
    const check = nginx.check();
    expect(check.ok, check.output).toBe(true);
    const running = nginx.start();
    cleanups.push(() => running.kill('SIGTERM'));
    const errorLog = nginx.errorLog;
    const reload = () => nginx.reload(site);

    /** One call through nginx, on a connection of its own. */
    const through = (reqPath: string, body?: unknown) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: ports.https,
            path: reqPath,
            method: body ? 'POST' : 'GET',
            servername: 'mcp.example.com',
            rejectUnauthorized: false,
            agent: false,
            headers: {
              host,
              ...(body
                ? {
                    authorization: `Bearer ${procs.a.demo.tokens.default}`,
                    'content-type': 'application/json',
                    accept: 'application/json, text/event-stream',
                  }
                : {}),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => {
              text += d;
            });
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
          },
        );
        req.on('error', reject);
        req.end(body ? JSON.stringify(body) : undefined);
      });
    const tool = (name: string, args: Record<string, unknown>) =>
      through('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    await until(async () => (await tool('list_sites', {}).catch(() => null))?.status === 200, 300, errorLog);

    // The file's other promises: HSTS, monitoring paths closed to the internet.
    const first = await tool('list_sites', {});
    expect(first.headers['strict-transport-security']).toBe('max-age=31536000');
    for (const p of ['/readyz', '/metrics', '/admin/stats']) expect((await through(p)).status).toBe(404);
    const plain = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet({ host: '127.0.0.1', port: ports.http, path: '/login', agent: false }, resolve).on(
        'error',
        reject,
      ),
    );
    plain.resume();
    expect([plain.statusCode, plain.headers.location]).toEqual([301, 'https://mcp.example.com/login']);

    // Four text sections of the website, which the editing writers share (both processes edit each).
    const website = procs.a.demo.websites.main;
    const answerOf = (r: { text: string }) => JSON.parse(r.text).result.structuredContent.data;
    const page = answerOf(await tool('create_page', { websiteId: website, title: 'Edited while rolling' }));
    const shared: Array<{ pageId: string; sectionId: string }> = [];
    for (let k = 0; k < 4; k++) {
      const added = await tool('add_section', {
        websiteId: website,
        pageId: page.pageId,
        type: 'text',
        content: { body: 'Start.' },
      });
      shared.push({ pageId: page.pageId, sectionId: answerOf(added).sectionId });
    }

    // The steady stream: two page creators and six section editors (half of the 16 write), eight readers,
    // each one call after another until told to stop.
    const answers: Answer[] = [];
    let stopping = false;
    let n = 0;
    const loop = async (kind: 'read' | 'write' | 'edit', who: number) => {
      for (let i = 0; !stopping && i < 100_000; i++) {
        n += 1;
        const title = kind === 'write' ? `Rolling ${n}` : undefined;
        const section = shared[(who + i) % shared.length]!;
        const r = await (kind === 'write'
          ? tool('create_page', { websiteId: website, title })
          : kind === 'edit'
            ? tool('update_section_text', { websiteId: website, ...section, text: { body: `Edit ${n}` } })
            : tool('list_sites', {})
        ).catch((err: Error) => ({ status: 0, text: err.message, headers: {} }));
        let ok = false;
        try {
          ok = JSON.parse(r.text).result.structuredContent.ok === true;
        } catch {}
        answers.push({
          kind,
          title,
          sectionId: kind === 'edit' ? section.sectionId : undefined,
          status: r.status,
          ok,
          error: ok ? undefined : r.text.slice(0, 200),
        });
      }
    };
    const kinds = ['write', 'write', 'edit', 'edit', 'edit', 'edit', 'edit', 'edit'] as const;
    const stream = Promise.all(Array.from({ length: 16 }, (_, i) => loop(kinds[i] ?? 'read', i)));
    const callsSoFar = () => answers.length;

    for (const name of ['a', 'b', 'a', 'b'] as const) {
      const port = ports[name];
      const before = callsSoFar();
      // 1. Take it out of the balancer.
      site = markDown(site, port, true);
      reload();
      // 2. Stop it (systemctl stop: SIGTERM); it drains, finishes what it has, exits 0.
      procs[name].server.child.kill('SIGTERM');
      const exit = await procs[name].server.done;
      expect(exit.code, exit.err).toBe(0);
      // 3. Start the new one on the same port; wait until it answers /readyz.
      procs[name] = await start(name === 'a' ? dirs.a : dirs.b, env(port));
      // 4. Back into the balancer.
      site = markDown(site, port, false);
      reload();
      // Calls went on meanwhile (the stream never paused).
      await until(() => callsSoFar() > before + 20 || null, 600);
    }
    const after = callsSoFar();
    await until(() => callsSoFar() > after + 40 || null, 600);
    stopping = true;
    await stream;

    const failed = answers.filter((a) => a.status !== 200 || !a.ok);
    expect(failed, `nginx error log:\n${errorLog()}`).toEqual([]);
    const writes = answers.filter((a) => a.kind === 'write');
    expect(writes.length).toBeGreaterThan(20);
    await withDb({ dataDir: dirs.a, databaseUrl: db.databaseUrl }, async (d) => {
      const rows = await d
        .select({ title: pages.title, n: count() })
        .from(pages)
        .where(and(eq(pages.websiteId, website)))
        .groupBy(pages.title);
      const byTitle = new Map(rows.map((r) => [r.title, Number(r.n)]));
      const missingOrTwice = writes.filter((w) => byTitle.get(w.title!) !== 1).map((w) => w.title);
      expect(missingOrTwice).toEqual([]);
      // Each section moved on by exactly the edits acknowledged for it (it started at rev 1).
      const revs = await d
        .select({ id: sections.id, rev: sections.rev })
        .from(sections)
        .where(
          inArray(
            sections.id,
            shared.map((x) => x.sectionId),
          ),
        );
      for (const r of revs) {
        const edits = answers.filter((a) => a.kind === 'edit' && a.sectionId === r.id).length;
        expect(r.rev, r.id).toBe(1 + edits);
      }
    });
    expect(errorLog()).not.toMatch(/no live upstreams|prematurely closed|reset by peer/);
  }, 600_000);
});
