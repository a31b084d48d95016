import { request } from 'node:http';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { newId } from '../../src/kernel/ids.js';
import { domains } from '../../src/db/schema.js';
import { normaliseHostname } from '../../src/domain/domains/hostname.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { tokenFor } from './fixtures.js';

let s: TestServer;
let dns: TestDns;
beforeAll(async () => {
  dns = await startTestDns();
  s = await startTestServer({
    seed: false,
    env: { DNS_SERVERS: dns.server, SITE_CNAME_TARGET: 'sites.sitegate.test', SITE_A_RECORD: '192.0.2.10' },
  });
});
afterAll(async () => {
  await s?.close();
  await dns?.close();
});

const db = () => s.sg.deps.services.db;
const domainsOf = (site: string) =>
  db().select().from(domains).where(eq(domains.websiteId, site)).orderBy(domains.hostname);
let n = 0;
const host = (d: Demo, sub = 'www') => `${sub}.t${++n}-${d.companyId.slice(3, 9).toLowerCase()}.example`;

/** GET with an explicit Host header, without following redirects. */
function getWithHost(hostHeader: string, path: string): Promise<{ status: number; location?: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path, method: 'GET', headers: { host: hostHeader } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('normaliseHostname', () => {
  it('lower-cases, converts IDN to punycode and drops a trailing dot', () => {
    expect(normaliseHostname(' WWW.Example.COM. ')).toBe('www.example.com');
    expect(normaliseHostname('bäckerei.example')).toBe('xn--bckerei-5wa.example');
    expect(normaliseHostname('münchen.de')).toBe('xn--mnchen-3ya.de');
  });

  it('refuses IPs, ports, paths, schemes, credentials and malformed names', () => {
    for (const bad of [
      '',
      'localhost',
      '192.0.2.1',
      '[::1]',
      '::1',
      'example.com:8080',
      'https://example.com',
      'example.com/path',
      'user@example.com',
      'exa mple.com',
      '-bad.example',
      'a..example',
      'example.123',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(130)}com`,
    ]) {
      expect(() => normaliseHostname(bad), bad).toThrow();
    }
  });
});

describe('connect_domain', () => {
  it('moves from "records needed" to verified when the records appear, idempotently', async () => {
    const d = await s.seed();
    const h = host(d);
    const first = await s.call(d.tokens.all, 'connect_domain', { hostname: h.toUpperCase() });
    expect(first.ok).toBe(true);
    expect(first.data).toMatchObject({ hostname: h, status: 'pending', created: true, primary: false });
    expect(first.data!.recordsNeeded).toHaveLength(2);
    const txt = first.data!.records.find((r: { type: string }) => r.type === 'TXT');
    const cname = first.data!.records.find((r: { type: string }) => r.type === 'CNAME');
    expect(txt.name).toBe(`_sitegate-verify.${h}`);
    expect(txt.value).toMatch(/^sitegate-verify=[0-9a-f]{32}$/);
    expect(cname).toMatchObject({ name: h, value: 'sites.sitegate.test', found: false });
    expect(first.data!.nextStep).toMatch(/call connect_domain with the same hostname again/);
    expect(JSON.stringify(first.data)).not.toMatch(/dom_/);

    // Only the TXT record: still pending, one record needed, the same token.
    dns.zone.set(txt.name, { TXT: [txt.value] });
    const second = await s.call(d.tokens.all, 'connect_domain', { hostname: h });
    expect(second.data).toMatchObject({ status: 'pending', created: false });
    expect(second.data!.recordsNeeded.map((r: { type: string }) => r.type)).toEqual(['CNAME']);
    expect(second.data!.records[0].value).toBe(txt.value);

    dns.zone.set(h, { CNAME: ['sites.sitegate.test'] });
    const third = await s.call(d.tokens.all, 'connect_domain', { hostname: `${h}.` });
    expect(third.data).toMatchObject({ status: 'verified', recordsNeeded: [] });
    expect(third.data!.nextStep).toMatch(/set_primary_domain/);
    const rows = await domainsOf(d.websites.main);
    expect(rows.filter((r) => r.hostname === h)).toHaveLength(1);
    expect(rows.find((r) => r.hostname === h)!.verifiedAt).not.toBeNull();
  });

  it('asks an apex domain for an A record and accepts it', async () => {
    const d = await s.seed();
    const apex = `apex${++n}-${d.companyId.slice(3, 9).toLowerCase()}.example`;
    const r = await s.call(d.tokens.all, 'connect_domain', { hostname: apex });
    const a = r.data!.records.find((x: { purpose: string }) => x.purpose === 'routing');
    expect(a).toMatchObject({ type: 'A', value: '192.0.2.10', found: false });
    dns.zone.set(`_sitegate-verify.${apex}`, { TXT: [r.data!.records[0].value] });
    dns.zone.set(apex, { A: ['192.0.2.10'] });
    expect((await s.call(d.tokens.all, 'connect_domain', { hostname: apex })).data!.status).toBe('verified');
  });

  it('refuses a hostname of another site exactly like set_primary_domain refuses a missing one', async () => {
    const d = await s.seed();
    const theirs = (await domainsOf(d.websites.main))[0]!; // the demo's verified domain, on main
    const mine = await s.seed();
    // Only these two workspaces' sites: other test files write domains to a shared PostgreSQL at the same time.
    const sites = [d.websites.main, d.websites.events, mine.websites.main, mine.websites.events];
    const ours = () =>
      db().select().from(domains).where(inArray(domains.websiteId, sites)).orderBy(domains.hostname);
    const before = await ours();
    const a = await s.call(mine.tokens.all, 'connect_domain', { hostname: theirs.hostname });
    const b = await s.call(mine.tokens.all, 'set_primary_domain', { hostname: theirs.hostname });
    const missing = `nowhere${++n}.example`;
    const c = await s.call(mine.tokens.all, 'set_primary_domain', { hostname: missing });
    expect(a.error?.code).toBe('not_found');
    expect(b.error).toEqual(a.error);
    expect(c.error?.message).toBe(a.error?.message.replace(theirs.hostname, missing));
    // The hint names the hostname and this site's proof token for it; otherwise it is the same text.
    const masked = (h: string | undefined, host: string) =>
      h?.replaceAll(host, 'HOST').replace(/sitegate-verify=[0-9a-f]{32}/, 'TOKEN');
    expect(masked(c.error?.hint, missing)).toBe(masked(a.error?.hint, theirs.hostname));
    expect(await ours()).toEqual(before);
  });

  it('refuses invalid hostnames, non-owners and missing scopes, writing nothing', async () => {
    const d = await s.seed();
    const before = await domainsOf(d.websites.main);
    for (const hostname of [
      '192.0.2.5',
      'example.com:443',
      'https://x.example/',
      'nodot',
      'x.sites.sitegate.test',
    ]) {
      expect((await s.call(d.tokens.all, 'connect_domain', { hostname })).error?.code).toBe('invalid_input');
    }
    const editor = await tokenFor(db(), {
      userId: d.users.editor.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    for (const [tool, args] of [
      ['list_domains', {}],
      ['connect_domain', { hostname: host(d) }],
      ['set_primary_domain', { hostname: before[0]!.hostname }],
    ] as const) {
      expect((await s.call(editor, tool, args)).error?.code).toBe('owner_only');
      expect((await s.call(d.tokens.default, tool, args)).error?.code).toBe('scope_missing');
    }
    expect(await domainsOf(d.websites.main)).toEqual(before);
  });

  it('refuses a new address once the website has the most it can have, writing nothing', async () => {
    const d = await s.seed();
    await db()
      .insert(domains)
      .values(
        Array.from({ length: 19 }, (_, i) => ({
          id: newId('dom'),
          websiteId: d.websites.main,
          hostname: host(d, `cap${i}`),
          verificationToken: 't',
        })),
      );
    const before = await domainsOf(d.websites.main);
    expect(before).toHaveLength(20);
    const r = await s.call(d.tokens.all, 'connect_domain', { hostname: host(d, 'one-more') });
    expect(r.error?.code).toBe('conflict');
    expect(await domainsOf(d.websites.main)).toEqual(before);
    // A re-check of an address already connected still works at the cap.
    expect((await s.call(d.tokens.all, 'connect_domain', { hostname: before[1]!.hostname })).ok).toBe(true);
  });

  it('has its own per-workspace throttle', async () => {
    const d = await s.seed();
    const h = host(d);
    let limited = 0;
    for (let i = 0; i < 32; i++) {
      const r = await s.call(d.tokens.all, 'connect_domain', { hostname: h });
      if (r.error?.code === 'rate_limited') limited++;
    }
    expect(limited).toBe(2);
    // Another workspace is not affected.
    const other = await s.seed();
    expect((await s.call(other.tokens.all, 'list_domains', {})).ok).toBe(true);
    expect((await s.call(other.tokens.all, 'connect_domain', { hostname: host(other) })).ok).toBe(true);
  });
});

describe('list_domains and set_primary_domain', () => {
  it('names domains by hostname only and switches the primary; the others redirect with 301', async () => {
    const d = await s.seed();
    const [old] = await domainsOf(d.websites.main);
    const h = host(d, 'shop');
    await db()
      .insert(domains)
      .values({
        id: newId('dom'),
        websiteId: d.websites.main,
        hostname: h,
        status: 'verified',
        verificationToken: 'tok',
        verifiedAt: new Date(),
      });
    const pending = host(d, 'pending');
    await s.call(d.tokens.all, 'connect_domain', { hostname: pending });

    const list = await s.call(d.tokens.all, 'list_domains', {});
    expect(list.data!.domains.map((x: { hostname: string }) => x.hostname).sort()).toEqual(
      [old!.hostname, h, pending].sort(),
    );
    expect(JSON.stringify(list.data)).not.toMatch(/dom_|verificationToken|"id"/);

    // Before the switch the new address redirects to the old primary.
    expect(await getWithHost(h, '/menu?x=1')).toEqual({
      status: 301,
      location: `https://${old!.hostname}/menu?x=1`,
    });
    const r = await s.call(d.tokens.all, 'set_primary_domain', { hostname: h });
    expect(r.data).toEqual({ hostname: h, primary: true, redirectsFrom: [old!.hostname, pending].sort() });
    const rows = await domainsOf(d.websites.main);
    expect(rows.filter((x) => x.isPrimary).map((x) => x.hostname)).toEqual([h]);

    expect(await getWithHost(`${old!.hostname}:8080`, '/menu?x=1')).toEqual({
      status: 301,
      location: `https://${h}/menu?x=1`,
    });
    expect((await getWithHost(h, '/menu')).status).not.toBe(301); // the primary serves itself
    expect((await getWithHost(pending, '/')).status).not.toBe(301); // unverified: no redirect
  });

  it('does not redirect for an unpublished site', async () => {
    const d = await s.seed();
    const a = host(d, 'a');
    const b = host(d, 'b');
    await db()
      .insert(domains)
      .values([
        {
          id: newId('dom'),
          websiteId: d.websites.events,
          hostname: a,
          status: 'verified',
          verificationToken: 't',
          isPrimary: true,
        },
        {
          id: newId('dom'),
          websiteId: d.websites.events,
          hostname: b,
          status: 'verified',
          verificationToken: 't',
        },
      ]);
    expect((await getWithHost(b, '/')).status).not.toBe(301);
  });
});
