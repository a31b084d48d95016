// The one way tests, benchmarks and CI scripts pick a loopback port for a server that listens later
// (a child process, an identity provider started after the Sitegate that names it).
//
// Ports are drawn below Linux's ephemeral range (32768–60999), which every outgoing connection and
// every listen(0) takes from: a port the kernel picked could be taken meanwhile by any connection of
// the suites running alongside (EADDRINUSE, seen in CI). A drawn port is free when checked, not
// reserved: a caller that can retry with another should.
//
// From a shell: `node --import tsx scripts/free-port.ts [count]` prints that many distinct ports.
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

const LOW = 20_000;
const SPAN = 12_000;

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** A port between 20000 and 31999 that nothing listens on now; never one of `taken`. */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = LOW + Math.floor(Math.random() * SPAN);
    if (!taken.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port between ${LOW} and ${LOW + SPAN - 1}`);
}

/** `count` distinct free ports, for a script that starts several servers at once. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(ports));
  return [...ports];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = Number(process.argv[2] ?? 1);
  if (!Number.isInteger(count) || count < 1) {
    console.error('usage: free-port [count]');
    process.exit(2);
  }
  console.log((await freePorts(count)).join(' '));
}
