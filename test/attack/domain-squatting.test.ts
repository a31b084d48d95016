// Attack suite, domain squatting (R-DOM-3): a tenant claims a business's hostname as pending
// with no proof. The business proves control with a TXT record holding its own claim's token (real DNS
// server, real resolver) and wins; an unproven claim lapses after PENDING_CLAIM_DAYS; a verified domain
// is never taken. The apex is decided by the public suffix list: bakery.co.uk is an apex.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domains } from '../../src/db/schema.js';
import { PENDING_CLAIM_DAYS, isApex } from '../../src/domain/domains/connect.js';
import { type TestDns, startTestDns } from '../helpers/dns-server.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';

const time = testClock();
let s: TestServer;
let dns: TestDns;
beforeAll(async () => {
  dns = await startTestDns();
  s = await startTestServer({
    seed: false,
    clock: time.clock,
    env: { DNS_SERVERS: dns.server, SITE_CNAME_TARGET: 'sites.sitegate.test', SITE_A_RECORD: '192.0.2.10' },
  });
});
afterAll(async () => {
  await s?.close();
  await dns?.close();
});

let n = 0;
const hostname = () => `www.bakery${++n}-${Math.random().toString(36).slice(2, 8)}.example`;
const rowOf = async (h: string) =>
  (await s.sg.deps.services.db.select().from(domains).where(eq(domains.hostname, h)))[0];

describe('domain squatting', () => {
  it('the business proves control with its own TXT token and takes the hostname from a squatter', async () => {
    const squatter = await s.seed();
    const business = await s.seed();
    const h = hostname();
    expect((await s.call(squatter.tokens.all, 'connect_domain', { hostname: h })).ok).toBe(true);
    const squatted = await rowOf(h);

    const refused = await s.call(business.tokens.all, 'connect_domain', { hostname: h });
    expect(refused.error?.code).toBe('not_found');
    expect(await rowOf(h)).toEqual(squatted); // nothing written
    const proof = /TXT record "([^"]+)" with value "([^"]+)"/.exec(refused.error!.hint!)!;
    expect(proof[1]).toBe(`_sitegate-verify.${h}`);
    // The squatter's own token is not the business's: publishing it proves nothing for the business.
    dns.zone.set(proof[1]!, { TXT: [`sitegate-verify=${squatted!.verificationToken}`] });
    expect((await s.call(business.tokens.all, 'connect_domain', { hostname: h })).error?.code).toBe(
      'not_found',
    );

    dns.zone.set(proof[1]!, { TXT: [proof[2]!] });
    const won = await s.call(business.tokens.all, 'connect_domain', { hostname: h });
    expect(won.ok).toBe(true);
    expect(won.data).toMatchObject({ hostname: h, created: true });
    expect((await rowOf(h))!.websiteId).toBe(business.websites.main);
    const theirs = await s.call(squatter.tokens.all, 'list_domains', {});
    expect((theirs.data!.domains as Array<{ hostname: string }>).map((d) => d.hostname)).not.toContain(h);
    // And the squatter cannot take it back without the business's DNS.
    expect((await s.call(squatter.tokens.all, 'connect_domain', { hostname: h })).error?.code).toBe(
      'not_found',
    );
  });

  it(`an unproven pending claim lapses after ${PENDING_CLAIM_DAYS} days; a verified domain is never taken`, async () => {
    const squatter = await s.seed();
    const business = await s.seed();
    const h = hostname();
    await s.call(squatter.tokens.all, 'connect_domain', { hostname: h });
    time.advance((PENDING_CLAIM_DAYS - 1) * 86_400_000);
    expect((await s.call(business.tokens.all, 'connect_domain', { hostname: h })).error?.code).toBe(
      'not_found',
    );
    time.advance(2 * 86_400_000);
    const r = await s.call(business.tokens.all, 'connect_domain', { hostname: h });
    expect(r.ok).toBe(true);
    expect((await rowOf(h))!.websiteId).toBe(business.websites.main);

    // The squatter's verified domain (the demo's own) stays theirs, even with a TXT proof published.
    const [verified] = await s.sg.deps.services.db
      .select()
      .from(domains)
      .where(eq(domains.websiteId, squatter.websites.main));
    expect(verified!.status).toBe('verified');
    const first = await s.call(business.tokens.all, 'connect_domain', { hostname: verified!.hostname });
    const proof = /TXT record "([^"]+)" with value "([^"]+)"/.exec(first.error!.hint!)!;
    dns.zone.set(proof[1]!, { TXT: [proof[2]!] });
    const again = await s.call(business.tokens.all, 'connect_domain', { hostname: verified!.hostname });
    expect(again.error?.code).toBe('not_found');
    expect(await rowOf(verified!.hostname)).toEqual(verified);
  });

  it('the apex comes from the public suffix list: bakery.co.uk asks for an A record, not a CNAME', async () => {
    expect(isApex('bakery.co.uk')).toBe(true);
    expect(isApex('www.bakery.co.uk')).toBe(false);
    expect(isApex('example.com')).toBe(true);
    expect(isApex('shop.example.com')).toBe(false);
    const d = await s.seed();
    const apex = `bakery${++n}${Math.random().toString(36).slice(2, 8)}.co.uk`;
    const r = await s.call(d.tokens.all, 'connect_domain', { hostname: apex });
    expect(r.ok).toBe(true);
    const routing = (r.data!.records as Array<{ purpose: string; type: string }>).find(
      (x) => x.purpose === 'routing',
    );
    expect(routing?.type).toBe('A');
    expect(r.data!.nextStep).not.toContain('CNAME');
  });
});
