// connect_domain: connects an address the business owns; verified once its DNS records are found.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import { claimToken } from '../../src/domain/domains/connect.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { toolKit } from './kit.js';

// The kit reads its env in its own beforeAll, registered after this one: the DNS server is up by then.
const env: Record<string, string> = { SITE_CNAME_TARGET: 'sites.sitegate.test' };
let dns: TestDns;
beforeAll(async () => {
  dns = await startTestDns();
  env.DNS_SERVERS = dns.server;
});
afterAll(() => dns?.close());
const kit = toolKit({ env });

it('matches its contract snapshot', () => kit.expectContract('connect_domain'));

it('stores the claim and verifies it when the proof and the routing record are in DNS', async () => {
  const w = await kit.workspace();
  const host = `www.${uniqueTag()}.example`;
  const token = claimToken(w.websites.main, host);
  dns.zone.set(`_sitegate-verify.${host}`, { TXT: [`sitegate-verify=${token}`] });
  dns.zone.set(host, { CNAME: ['sites.sitegate.test'] });
  const r = await kit.call(w.tokens.all, 'connect_domain', { hostname: host.toUpperCase() });
  expect(r.ok).toBe(true);
  expect(r.data).toMatchObject({ hostname: host, status: 'verified', created: true, recordsNeeded: [] });
  const [row] = await kit.db.select().from(domains).where(eq(domains.hostname, host));
  expect(row).toMatchObject({
    websiteId: w.websites.main,
    status: 'verified',
    verificationToken: token,
    isPrimary: false,
  });
  expect(row!.verifiedAt).not.toBeNull();
});

it('refuses an IP address as invalid input, writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.all, 'connect_domain', { hostname: '192.0.2.5' }),
    { tool: 'connect_domain', companyIds: [w.companyId] },
  );
});
