// Attack suite, the development identity provider as a port scanner: an https URL as client_id makes it
// fetch that Client ID Metadata Document. A client_id on loopback, on a private or reserved address of
// this machine, or on a name that resolves to one must be refused before any connection: the listener
// the test runs on every one of those addresses counts the sockets it accepted, and it stays at zero.
// Nothing is stored for a refused client.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, signingKeys, startIdp } from '../../src/auth/oauth/idp.js';
import { oidcModels } from '../../src/db/schema.js';
import { dnsServerResolver, isPublicAddress } from '../../src/net/ssrf.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';

let idp: Idp;
let dns: TestDns;
let listener: net.Server;
let port = 0;
let accepted = 0;

beforeAll(async () => {
  dns = await startTestDns();
  idp = await startIdp({
    db: (await testDatabase()).db,
    audience: 'http://127.0.0.1:9/api/mcp',
    jwks: await signingKeys(),
    resolve: dnsServerResolver([dns.server]),
  });
  // One listener on every address of this machine (IPv6 and IPv4), counting what reaches it.
  listener = net.createServer((socket) => {
    accepted += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
  port = (listener.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await idp?.close();
  await dns?.close();
  await new Promise((r) => listener?.close(r));
});

/** This machine's own addresses that are not public: a private or reserved network the listener is on. */
const ownNonPublic = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a && !a.internal && !a.address.startsWith('fe80') && !isPublicAddress(a.address))
  .map((a) => a!.address);

const hostPart = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** Starts an authorization request naming `clientId`; the provider's answer. */
async function authorize(clientId: string) {
  const url = new URL(`${idp.issuer}/auth`);
  const verifier = randomBytes(32).toString('base64url');
  for (const [k, v] of Object.entries({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:9/callback',
    scope: 'openid',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

const stored = async () => (await (await testDatabase()).db.select({ n: count() }).from(oidcModels))[0]!.n;

describe('a client_id metadata document on an internal address', () => {
  it('loopback literals are refused without a connection', async () => {
    const before = await stored();
    for (const host of ['127.0.0.1', '[::1]', '127.1.2.3', '[::ffff:127.0.0.1]']) {
      const r = await authorize(`https://${host}:${port}/client.json`);
      expect(r.status, host).toBe(400);
      expect(r.body).toMatch(/invalid_client/);
    }
    expect(accepted).toBe(0);
    expect(await stored()).toBe(before);
  });

  it('a name that resolves to loopback, or to a mix with a public address, is refused without a connection', async () => {
    const inside = `cimd-${uniqueTag().toLowerCase()}.example`;
    const mixed = `mixed-${uniqueTag().toLowerCase()}.example`;
    dns.zone.set(inside, { A: ['127.0.0.1'] });
    dns.zone.set(mixed, { A: ['93.184.215.14', '127.0.0.1'] });
    const queries = dns.queries;
    for (const host of [inside, mixed]) {
      const r = await authorize(`https://${host}:${port}/client.json`);
      expect(r.status, host).toBe(400);
    }
    // The guard asked the DNS server, so the refusal is its check of the answers, not a failed lookup.
    expect(dns.queries).toBeGreaterThan(queries);
    expect(accepted).toBe(0);
  });

  it.skipIf(ownNonPublic.length === 0)(
    'this machine’s private or reserved addresses are refused without a connection',
    async () => {
      for (const address of ownNonPublic) {
        const r = await authorize(`https://${hostPart(address)}:${port}/client.json`);
        expect(r.status, address).toBe(400);
      }
      expect(accepted).toBe(0);
    },
  );

  it('the listener does count a connection that reaches it (the zeros above mean something)', async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve());
      socket.on('error', reject);
    });
    for (let i = 0; i < 50 && accepted === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(accepted).toBe(1);
  });
});
