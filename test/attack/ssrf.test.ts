// Attack suite, server-side request forgery through the tools an agent can call (the guard itself is
// tested vector by vector in test/migrate/ssrf.test.ts): migrate_site_from_url and import_site's asset
// URLs, aimed at a listener on 127.0.0.1 and at private and metadata addresses. Every one is refused
// with unsafe_url, the listener never sees a connection, and nothing is written.
import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footprint } from '../portable/helpers.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
let trap: Server;
let P = 0;
let connections = 0;
beforeAll(async () => {
  trap = createServer((_req, res) => res.end('<html><body>secret</body></html>'));
  trap.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  P = (trap.address() as { port: number }).port;
  s = await startTestServer({ seed: false });
});
afterAll(async () => {
  await s?.close();
  await new Promise((r) => trap?.close(r));
});

const vectors = () => [
  `http://127.0.0.1:${P}/`,
  `http://0x7f.1:${P}/`,
  `http://2130706433:${P}/`,
  `http://0177.0.0.1:${P}/`,
  `http://127.1:${P}/`,
  `http://[::1]:${P}/`,
  `http://[::ffff:127.0.0.1]:${P}/`,
  `http://[::ffff:7f00:1]:${P}/`,
  `http://localhost:${P}/`,
  'http://169.254.169.254/latest/meta-data/',
  `http://10.0.0.1:${P}/`,
  `http://172.16.0.1:${P}/`,
  `http://192.168.1.1:${P}/`,
  `http://100.64.0.1:${P}/`,
  `http://0.0.0.0:${P}/`,
  `http://[fe80::1]:${P}/`,
  `http://[fc00::1]:${P}/`,
  'http://[fd00:ec2::254]/',
  `http://[64:ff9b::7f00:1]:${P}/`,
  `http://user:pass@127.0.0.1:${P}/`,
  'file:///etc/passwd',
  `gopher://127.0.0.1:${P}/_GET`,
];

describe('SSRF through the tools', () => {
  it('migrate_site_from_url: every vector is unsafe_url, no connection, nothing written', async () => {
    const d = await s.seed();
    const before = await footprint(s, d.companyId);
    for (const url of vectors()) {
      const r = await s.call(d.tokens.all, 'migrate_site_from_url', { url });
      // The refusal says how an operator lets a private staging copy through.
      expect({ url, code: r.error?.code, hint: r.error?.hint }).toEqual({
        url,
        code: 'unsafe_url',
        hint: expect.stringContaining('CRAWL_ALLOW_HOSTS'),
      });
    }
    expect(connections).toBe(0);
    expect(await footprint(s, d.companyId)).toEqual(before);
  });

  it('import_site: an asset URL aimed inside is refused and the whole import writes nothing', async () => {
    const d = await s.seed();
    const before = await footprint(s, d.companyId);
    for (const url of vectors().filter((v) => v.startsWith('http'))) {
      const site = {
        version: 1,
        name: 'Pulls from inside',
        businessName: 'Inside Co',
        assets: [{ key: 'img', url }],
        pages: [
          {
            slug: 'home',
            title: 'Home',
            sections: [{ externalKey: 'a', type: 'image', content: { url: 'asset:img', alt: 'x' } }],
          },
        ],
      };
      const r = await s.call(d.tokens.all, 'import_site', { site });
      expect({ url, ok: r.ok }).toEqual({ url, ok: false });
      // The refusal says how an operator lets a private staging copy through.
      expect({ url, code: r.error?.code, hint: r.error?.hint }).toEqual({
        url,
        code: 'unsafe_url',
        hint: expect.stringContaining('CRAWL_ALLOW_HOSTS'),
      });
    }
    expect(connections).toBe(0);
    expect(await footprint(s, d.companyId)).toEqual(before);
  });
});
