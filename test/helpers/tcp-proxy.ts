// A TCP proxy the fault tests control, put between Sitegate and PostgreSQL or Redis: it forwards bytes
// both ways until told to fail the way networks and servers fail.
//   stall()  stops forwarding in both directions but keeps every socket open, and new connections
//            are accepted and held without being connected through (a partition, a frozen VM);
//   reset()  destroys every open connection with a TCP RST (a restart, a failover, a pooler's cut);
//   refuse() makes new connections fail at once (the server is down), open ones are reset;
//   heal()   forwards again; held connections are connected through, nothing buffered is lost.
// It is a real proxy on 127.0.0.1, not a mock: the client and the server speak their own protocol.
import net from 'node:net';
import { freePort } from './server.js';

export type FaultMode = 'pass' | 'stall' | 'refuse';

export type TcpProxy = {
  port: number;
  /** `host:port` of the proxy, to put into a DATABASE_URL or REDIS_URL. */
  address: string;
  mode(): FaultMode;
  stall(): void;
  reset(): void;
  refuse(): void;
  heal(): void;
  /** Connections currently open through the proxy (client side). */
  open(): number;
  close(): Promise<void>;
};

type Pair = { client: net.Socket; upstream: net.Socket | null; held: Buffer[] };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: FaultMode = 'pass';
  const pairs = new Set<Pair>();

  const connectThrough = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('data', (d) => {
      if (!pair.client.destroyed) pair.client.write(d);
    });
    upstream.on('error', () => pair.client.destroy());
    upstream.on('close', () => pair.client.destroy());
    for (const chunk of pair.held.splice(0)) upstream.write(chunk);
  };

  const server = net.createServer((client) => {
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: null, held: [] };
    pairs.add(pair);
    client.on('data', (d) => {
      if (mode === 'pass' && pair.upstream) pair.upstream.write(d);
      else pair.held.push(d);
    });
    client.on('error', () => pair.upstream?.destroy());
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (mode === 'pass') connectThrough(pair);
  });

  // Pausing both sockets stops reading: nothing is forwarded and TCP back-pressure builds, as on a
  // partition. Resuming lets what the kernel buffered flow on.
  const pauseAll = () => {
    for (const p of pairs) {
      p.client.pause();
      p.upstream?.pause();
    }
  };
  const resumeAll = () => {
    for (const p of pairs) {
      if (!p.upstream && !p.client.destroyed) connectThrough(p);
      else for (const chunk of p.held.splice(0)) p.upstream?.write(chunk);
      p.client.resume();
      p.upstream?.resume();
    }
  };
  const resetAll = () => {
    for (const p of pairs) {
      p.client.resetAndDestroy();
      p.upstream?.resetAndDestroy();
    }
    pairs.clear();
  };

  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  return {
    port,
    address: `127.0.0.1:${port}`,
    mode: () => mode,
    stall() {
      mode = 'stall';
      pauseAll();
    },
    reset() {
      resetAll();
    },
    refuse() {
      mode = 'refuse';
      resetAll();
    },
    heal() {
      mode = 'pass';
      resumeAll();
    },
    open: () => pairs.size,
    async close() {
      resetAll();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
