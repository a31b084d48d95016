// Shutdown, the parts a balancer and a supervisor rely on (docs/operating.md, rolling restarts):
// - the drain: after SIGTERM, /readyz answers 503 at once while calls are still served (each answer
//   asks the client to close its connection), for SHUTDOWN_DRAIN_MS; a keep-alive connection left idle
//   is not closed under the proxy that may be sending on it; then the process exits 0;
// - the listener's close: a keep-alive connection still open then is not closed under a request on
//   its way (a proxy may not retry a POST it sent): the request is answered, and the answer closes it;
// - the deadline: with its database stalled mid-call, SIGTERM still ends the process, with exit 1 and
//   a log line saying so, instead of waiting on the database for ever (PostgreSQL, through a TCP
//   proxy the test stalls).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { type Child, backend, call, preparedDataDir, start } from '../reliability/harness.js';
import { until } from '../helpers/process.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

/** One request on a connection of its own: status, the Connection header, the body. */
function once(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
) {
  return new Promise<{ status: number; connection?: string; body: string; reused: boolean }>(
    (resolve, reject) => {
      const agent = init.agent ?? false;
      const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            body,
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
      req.end(init.body);
    },
  );
}

const children: Child[] = [];
afterAll(() => {
  for (const c of children) if (c.server.child.exitCode === null) c.server.child.kill('SIGKILL');
});

it('SIGTERM with a drain: /readyz says 503 at once, calls are still answered, then exit 0', async () => {
  const c = await start(preparedDataDir('drain'), { SHUTDOWN_DRAIN_MS: '8000', LOG_LEVEL: 'info' });
  children.push(c);
  // A proxy's idle keep-alive connection, opened before the SIGTERM.
  const kept = new Agent({ keepAlive: true, maxSockets: 1 });
  const first = await once(`${c.base}/healthz`, { agent: kept });
  expect(first.status).toBe(200);
  c.server.child.kill('SIGTERM');
  const ready = await until(async () => {
    const r = await once(`${c.base}/readyz`);
    return r.status === 503 ? r : null;
  }, 50);
  expect(JSON.parse(ready.body)).toMatchObject({ ready: false, draining: true });
  // The idle connection was not closed under the proxy: a request sent on it is answered, and the
  // answer closes it.
  const reused = await once(`${c.base}/healthz`, { agent: kept });
  expect([reused.reused, reused.status, reused.connection]).toEqual([true, 200, 'close']);
  kept.destroy();
  // Still serving, a write included, on new connections; each answer closes its connection.
  const write = await once(`${c.base}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${c.demo.tokens.default}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_page', arguments: { websiteId: c.demo.websites.main, title: 'Drained' } },
    }),
  });
  expect(write.status).toBe(200);
  expect(write.connection).toBe('close');
  expect(JSON.parse(write.body).result.structuredContent.ok).toBe(true);
  const exit = await c.server.done;
  expect(exit.code, exit.err).toBe(0);
  expect(exit.out).not.toContain('shutdown did not finish in time');
  await expect(once(`${c.base}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
}, 120_000);

/** Whether a new TCP connection to `port` is accepted (false once the listener has closed). */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });

it('a request on its way over an idle keep-alive connection when the listener closes is answered, not reset', async () => {
  // No drain (the default): the listener closes at SIGTERM, with a proxy's keep-alive connection idle.
  const c = await start(preparedDataDir('close-race'), { SHUTDOWN_DRAIN_MS: '0' });
  children.push(c);
  const port = Number(new URL(c.base).port);
  const kept = new Agent({ keepAlive: true, maxSockets: 1 });
  expect((await once(`${c.base}/healthz`, { agent: kept })).status).toBe(200);
  c.server.child.kill('SIGTERM');
  await until(async () => ((await accepts(port)) ? null : true), 100);
  // The proxy sends on the connection it kept: the request is answered, and the answer closes it.
  const reused = await once(`${c.base}/healthz`, { agent: kept });
  expect([reused.reused, reused.status, reused.connection]).toEqual([true, 200, 'close']);
  kept.destroy();
  const exit = await c.server.done;
  expect(exit.code, exit.err).toBe(0);
}, 120_000);

const pgUrl = process.env.DATABASE_URL;

it.runIf(pgUrl)(
  'SIGTERM with the database stalled mid-call: exit 1 at the deadline, said in the log',
  async () => {
    const db = await backend();
    const target = new URL(db.databaseUrl!);
    let proxy: TcpProxy | undefined;
    try {
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const through = new URL(db.databaseUrl!);
      through.host = proxy.address;
      const c = await start(preparedDataDir('deadline'), {
        DATABASE_URL: through.toString(),
        SHUTDOWN_TIMEOUT_MS: '1500',
        LOG_LEVEL: 'info',
      });
      children.push(c);
      expect((await call(c, c.demo.tokens.default, 'list_sites', {}))?.ok).toBe(true);
      proxy.stall();
      // A write now waits on the stalled database; then the supervisor stops the process.
      const stuck = call(c, c.demo.tokens.default, 'create_page', {
        websiteId: c.demo.websites.main,
        title: 'Stuck',
      });
      await new Promise((r) => setTimeout(r, 1_000));
      c.server.child.kill('SIGTERM');
      const exit = await Promise.race([
        c.server.done,
        new Promise<null>((r) => setTimeout(() => r(null), 60_000).unref()),
      ]);
      expect(exit, 'the process outlived its shutdown deadline').not.toBeNull();
      expect(exit!.code).toBe(1);
      expect(exit!.out).toContain('shutdown did not finish in time');
      // The call that was cut got no answer: the client knows it must look before retrying.
      expect(await stuck).toBeNull();
    } finally {
      proxy?.heal();
      await proxy?.close();
      await db.drop();
    }
  },
  120_000,
);
