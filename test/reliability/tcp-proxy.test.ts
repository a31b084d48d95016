// The fault proxy itself (test/helpers/tcp-proxy.ts) against a real PostgreSQL or a plain echo server:
// the fault tests rely on each mode doing what it says, so each is shown here once.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/server.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';

let echo: net.Server;
let proxy: TcpProxy;

beforeAll(async () => {
  echo = net.createServer((s) => {
    s.on('error', () => {});
    s.pipe(s);
  });
  const port = await freePort();
  await new Promise<void>((r) => echo.listen(port, '127.0.0.1', () => r()));
  proxy = await startTcpProxy({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((r) => echo.close(() => r()));
});

const connect = () =>
  new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(proxy.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
/** The next bytes the socket receives, or 'silent' after `ms`, or 'closed'. */
const next = (s: net.Socket, ms = 300) =>
  new Promise<string>((resolve) => {
    const t = setTimeout(() => resolve('silent'), ms);
    s.once('data', (d) => {
      clearTimeout(t);
      resolve(String(d));
    });
    s.once('close', () => {
      clearTimeout(t);
      resolve('closed');
    });
  });

describe('the fault proxy', () => {
  it('forwards, stalls without closing, and delivers what was held once healed', async () => {
    const s = await connect();
    s.write('one');
    expect(await next(s)).toBe('one');
    proxy.stall();
    s.write('two');
    expect(await next(s)).toBe('silent');
    expect(s.destroyed).toBe(false);
    const late = next(s, 2_000);
    proxy.heal();
    expect(await late).toBe('two');
    s.destroy();
  });

  it('holds new connections during a stall and connects them through when healed', async () => {
    proxy.stall();
    const s = await connect();
    s.write('held');
    expect(await next(s)).toBe('silent');
    const late = next(s, 2_000);
    proxy.heal();
    expect(await late).toBe('held');
    s.destroy();
  });

  it('resets open connections, and refuses new ones until healed', async () => {
    const s = await connect();
    const errored = new Promise<string>((r) =>
      s.once('error', (e: NodeJS.ErrnoException) => r(e.code ?? '')),
    );
    proxy.reset();
    expect(await errored).toBe('ECONNRESET');
    proxy.refuse();
    const refused = await connect().then(
      (c) => next(c, 1_000),
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(['closed', 'ECONNRESET']).toContain(refused);
    proxy.heal();
    const again = await connect();
    again.write('back');
    expect(await next(again)).toBe('back');
    again.destroy();
  });
});
