// The SSRF guard (R-MIG-2):
// hostile targets are refused with unsafe_url and not one connection reaches a listener on 127.0.0.1.
// The only way to a loopback fixture is the explicit host:port allow-list.
import { type Server, createServer } from 'node:http';
import { Packet, createServer as createDnsServer } from 'dns2';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../src/net/fetch.js';
import { type Guard, createGuard, dnsServerResolver, isPublicAddress } from '../../src/net/ssrf.js';

let trap: Server; // the listener hostile targets aim at: must never see a connection
let trapPort = 0;
let trapConnections = 0;
let trapRequests = 0;
let fixture: Server; // an allow-listed fixture that redirects to hostile places
let fixturePort = 0;
let guard: Guard;

const DNS: Record<string, string[]> = {
  'public.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
};

async function listen(s: Server): Promise<number> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

beforeAll(async () => {
  trap = createServer((_req, res) => {
    trapRequests += 1;
    res.end('secret');
  });
  trap.on('connection', () => {
    trapConnections += 1;
  });
  trapPort = await listen(trap);
  fixture = createServer((req, res) => {
    const to: Record<string, string> = {
      '/to-trap': `http://127.0.0.1:${trapPort}/`,
      '/to-meta': 'http://169.254.169.254/latest/meta-data/',
      '/to-trap-hex': `http://0x7f000001:${trapPort}/`,
      '/to-file': 'file:///etc/passwd',
    };
    const loc = to[req.url ?? ''];
    if (loc) res.writeHead(302, { location: loc }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
  });
  fixturePort = await listen(fixture);
  guard = createGuard({
    allowHosts: [`127.0.0.1:${fixturePort}`],
    resolve: async (host) => {
      const a = DNS[host];
      if (!a) throw new Error('ENOTFOUND');
      return a;
    },
  });
});
afterAll(async () => {
  await guard?.close();
  await new Promise((r) => trap?.close(r));
  await new Promise((r) => fixture?.close(r));
});

const opts = { maxBytes: 100_000, timeoutMs: 5_000 };

describe('SSRF guard', () => {
  it('the WHATWG URL parser normalises decimal, octal, hex and short IPv4 spellings to 127.0.0.1', () => {
    for (const h of ['0x7f.1', '2130706433', '0177.0.0.1', '127.1', '0x7f000001', '0x7f.0.0.1']) {
      expect(new URL(`http://${h}/`).hostname).toBe('127.0.0.1');
    }
  });

  it('refuses every hostile target with unsafe_url and no connection reaches the listener', async () => {
    const P = trapPort;
    const F = fixturePort;
    const targets = [
      `http://127.0.0.1:${P}/`,
      `http://0x7f.1:${P}/`,
      `http://2130706433:${P}/`,
      `http://0177.0.0.1:${P}/`,
      `http://127.1:${P}/`,
      `http://[::1]:${P}/`,
      `http://[::ffff:127.0.0.1]:${P}/`,
      `http://[::ffff:7f00:1]:${P}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://10.0.0.1:${P}/`,
      `http://10.255.255.254:${P}/`,
      `http://172.16.0.1:${P}/`,
      `http://172.31.255.255:${P}/`,
      `http://192.168.1.1:${P}/`,
      `http://100.64.0.1:${P}/`,
      `http://100.100.100.200:${P}/`,
      `http://0.0.0.0:${P}/`,
      `http://0:${P}/`,
      `http://224.0.0.1:${P}/`,
      `http://239.255.255.250:${P}/`,
      `http://255.255.255.255:${P}/`,
      `http://240.0.0.1:${P}/`,
      `http://192.0.2.1:${P}/`,
      `http://[::]:${P}/`,
      `http://[fe80::1]:${P}/`,
      `http://[fc00::1]:${P}/`,
      `http://[fd00:ec2::254]/`,
      `http://[ff02::1]:${P}/`,
      `http://[64:ff9b::7f00:1]:${P}/`,
      `http://localhost:${P}/`,
      `http://public.example.com:${P}/`,
      'http://metadata.example.com/latest/meta-data/',
      `http://mixed.example.com:${P}/`,
      `http://mapped.example.com:${P}/`,
      'http://metadata.google.internal/computeMetadata/v1/',
      `http://nowhere.example.org:${P}/`,
      `http://127.0.0.1:${F}/to-trap`,
      `http://127.0.0.1:${F}/to-trap-hex`,
      `http://127.0.0.1:${F}/to-meta`,
      `http://127.0.0.1:${F}/to-file`,
      `http://user:pass@127.0.0.1:${F}/`,
      'file:///etc/passwd',
      `gopher://127.0.0.1:${P}/_GET`,
      `ftp://127.0.0.1:${P}/`,
      'data:text/html,<script>alert(1)</script>',
      'javascript:alert(1)',
      `ws://127.0.0.1:${P}/`,
      'not a url',
    ];
    expect(targets.length).toBeGreaterThanOrEqual(25);
    for (const t of targets) {
      await expect(guardedFetch(guard, t, opts), t).rejects.toMatchObject({ code: 'unsafe_url' });
    }
    expect(trapConnections).toBe(0);
    expect(trapRequests).toBe(0);
  });

  it('the allow-listed fixture itself is reachable (the allow-list is exact host:port)', async () => {
    const r = await guardedFetch(guard, `http://127.0.0.1:${fixturePort}/`, opts);
    expect(r.body.toString()).toBe('<p>ok</p>');
    await expect(guardedFetch(guard, `http://localhost:${fixturePort}/`, opts)).rejects.toMatchObject({
      code: 'unsafe_url',
    });
  });

  it("an operator's allow-listed name on a private network is reached on its port only", async () => {
    // A staging copy named staging.example.lan, resolving to a private (here loopback) address.
    const g = createGuard({
      allowHosts: [`Staging.example.lan:${fixturePort}`],
      resolve: async (host) => (host === 'staging.example.lan' ? ['127.0.0.1'] : []),
    });
    const before = trapConnections;
    try {
      const r = await guardedFetch(g, `http://staging.example.lan:${fixturePort}/`, opts);
      expect(r.body.toString()).toBe('<p>ok</p>');
      // The same name on another port, and a redirect from it to a private address, stay refused.
      for (const url of [
        `http://staging.example.lan:${trapPort}/`,
        `http://staging.example.lan:${fixturePort}/to-trap`,
      ]) {
        await expect(guardedFetch(g, url, opts), url).rejects.toMatchObject({
          code: 'unsafe_url',
          hint: expect.stringContaining('CRAWL_ALLOW_HOSTS'),
        });
      }
      // Straight through the dispatcher: the socket to the unlisted port is cut before any request.
      await expect(
        request(`http://staging.example.lan:${trapPort}/`, { dispatcher: g.agent }),
      ).rejects.toThrow();
      expect(trapRequests).toBe(0);
      expect(trapConnections - before).toBeLessThanOrEqual(1);
    } finally {
      await g.close();
    }
  });

  it('checks the connected socket too: a literal loopback address that skips the URL check gets no request through', async () => {
    const before = trapConnections;
    await expect(request(`http://127.0.0.1:${trapPort}/`, { dispatcher: guard.agent })).rejects.toThrow();
    // The TCP handshake happened (no resolver is involved for a literal), but the socket was destroyed
    // before a single byte of request was written.
    expect(trapConnections).toBe(before + 1);
    expect(trapRequests).toBe(0);
    // A name is resolved through the pinned, checked lookup: refused before connecting.
    await expect(
      request(`http://public.example.com:${trapPort}/`, { dispatcher: guard.agent }),
    ).rejects.toThrow();
    expect(trapConnections).toBe(before + 1);
    expect(trapRequests).toBe(0);
  });

  it('a public-looking name whose real DNS answer is private is refused (dns2 server on 127.0.0.1)', async () => {
    let queries = 0;
    const server = createDnsServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const name = request.questions[0]!.name;
        queries += 1;
        const answers: Record<string, string> = {
          'shop.example.net': '127.0.0.1',
          'cloud.example.net': '169.254.169.254',
          'intranet.example.net': '10.1.2.3',
        };
        if (answers[name] && request.questions[0]!.type === Packet.TYPE.A) {
          response.answers.push({
            name,
            type: Packet.TYPE.A,
            class: Packet.CLASS.IN,
            ttl: 60,
            address: answers[name],
          } as never); // dns2's Resource type also wants the encoder the server adds itself
        }
        send(response);
      },
    });
    const addrs = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const g = createGuard({ resolve: dnsServerResolver([`127.0.0.1:${addrs.udp!.port}`]) });
    const before = trapConnections;
    try {
      for (const host of [
        'shop.example.net',
        'cloud.example.net',
        'intranet.example.net',
        'none.example.net',
      ]) {
        await expect(guardedFetch(g, `http://${host}:${trapPort}/`, opts), host).rejects.toMatchObject({
          code: 'unsafe_url',
        });
      }
    } finally {
      await g.close();
      await server.close();
    }
    expect(queries).toBeGreaterThanOrEqual(4); // the answers really came from the DNS server
    expect(trapConnections).toBe(before);
    expect(trapRequests).toBe(0);
  });

  it('classifies addresses: only public unicast passes', () => {
    for (const ip of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '1.1.1.1'])
      expect(isPublicAddress(ip)).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'fe80::1',
      'x',
    ]) {
      expect(isPublicAddress(ip)).toBe(false);
    }
  });
});
