// Privacy-first page views (R-VIS-3): the published site counts N requests from one address
// as N views (up to the hourly cap: test/attack/page-view-inflation.test.ts) and 1 visitor; bots,
// prefetches, HEAD, missing pages and thank-you pages count nothing; a connected custom domain serves
// and counts the site too; get_analytics_summary reports it; and no IP address or user agent is
// stored anywhere (every table scanned, and the rate limiter's keys).
import http from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents, visitorHash } from '../../src/domain/analytics/record.js';
import { rotateVisitorSalts, utcDay, visitorKeyCache } from '../../src/domain/analytics/visitor-keys.js';
import { analyticsEvents, domains, visitorKeys } from '../../src/db/schema.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';
import { BROWSER_UA, crowd, fillAndSend, formOf } from './visitor.js';

let s: TestServer;
const time = testClock();
const people = crowd('127.0.39');
const as = (address: string, userAgent = BROWSER_UA) => people.at(address, userAgent);
beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: time.clock });
});
afterAll(async () => {
  await people.close();
  await s?.close();
});
const db = () => s.sg.deps.services.db;
const skip = () => time.advance(5_000);

async function figures(token: string) {
  const r = await s.call(token, 'get_analytics_summary', { days: 1 });
  expect(r.ok).toBe(true);
  const { since: _, ...rest } = r.data as Record<string, any>;
  return rest as {
    pageViews: number;
    uniqueVisitors: number;
    formSubmissions: number;
    bookings: number;
    topPages: Array<{ path: { untrusted: true; text: string }; views: number }>;
  };
}

/** GET with an explicit Host header (a customer's domain pointing at this service). */
function viaHost(
  host: string,
  path: string,
  opts: { method?: string; body?: string; address?: string; referer?: string } = {},
) {
  const u = new URL(s.url);
  return new Promise<{ status: number; location?: string; html: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: opts.method ?? 'GET',
        localAddress: opts.address ?? '127.0.33.1',
        headers: {
          host,
          'user-agent': BROWSER_UA,
          ...(opts.referer ? { referer: opts.referer } : {}),
          ...(opts.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          html += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, html }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('page views', () => {
  it('N requests from one browser are N views and 1 visitor; another address is another visitor', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const before = await figures(d.tokens.all);
    const v = as('127.0.32.1');
    const paths = ['/', '/about', '/', '/contact', '/blog', '/book', '/about'];
    for (const p of paths) expect((await v.get(base + p)).status).toBe(200);
    const after = await figures(d.tokens.all);
    expect(after.pageViews - before.pageViews).toBe(7);
    expect(after.uniqueVisitors - before.uniqueVisitors).toBe(1);
    const views = (f: typeof after, p: string) => f.topPages.find((t) => t.path.text === p)?.views ?? 0;
    expect(views(after, '/about') - views(before, '/about')).toBe(2);

    // Same address, another browser: the same visitor (the user agent is the sender's to rotate).
    // Same browser, another address: a second.
    await as('127.0.32.1', `${BROWSER_UA} Edg/131.0.0.0`).get(`${base}/`);
    await as('127.0.32.2').get(`${base}/`);
    const more = await figures(d.tokens.all);
    expect(more.pageViews - after.pageViews).toBe(2);
    expect(more.uniqueVisitors - after.uniqueVisitors).toBe(1);
  });

  it('bots, no user agent, prefetches, HEAD, missing pages and thank-you pages count nothing', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const before = await figures(d.tokens.all);
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'curl/8.5.0',
      'python-requests/2.32.3',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'UptimeRobot/2.0',
    ]) {
      expect((await as('127.0.32.3', ua).get(`${base}/`)).status).toBe(200);
    }
    const v = as('127.0.32.4', '');
    expect((await v.get(`${base}/`)).status).toBe(200);
    const person = as('127.0.32.5');
    expect((await person.get(`${base}/`, { 'sec-purpose': 'prefetch' })).status).toBe(200);
    expect((await person.get(`${base}/about`, { purpose: 'prefetch' })).status).toBe(200);
    expect((await person.get(`${base}/`, {}, 'HEAD')).status).toBe(200);
    expect((await person.get(`${base}/no-such-page`)).status).toBe(404);
    expect((await person.get(`${base}/book/svc_doesnotexist0001`)).status).toBe(404);
    expect((await person.get(`${base}/_sent/contact`)).status).toBe(200);
    expect(await figures(d.tokens.all)).toEqual(before);
  });

  it('sets no cookie: pages, forms, thank-you pages and images', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const v = as('127.0.32.6');
    const page = await v.get(`${base}/contact`);
    expect(page.headers.get('set-cookie')).toBeNull();
    const fields = { name: 'C', email: 'c@example.com', message: 'Hi' };
    const sent = await fillAndSend(v, s.url, `${base}/contact`, '/_forms/contact', fields, skip);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('set-cookie')).toBeNull();
    for (const p of [`${base}/_sent/contact`, `${base}/book`, `${s.url}/favicon.ico`]) {
      expect((await v.get(p)).headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('on a connected custom domain', () => {
  it('keeps only another site’s host as the referrer: no path or query, nothing for its own pages', async () => {
    const d = await s.seed();
    const [dom] = await db()
      .select({ hostname: domains.hostname })
      .from(domains)
      .where(and(eq(domains.websiteId, d.websites.main), eq(domains.status, 'verified')));
    const domain = dom!.hostname;
    const tag = uniqueTag();
    const seen = () =>
      db()
        .select({ referrer: analyticsEvents.referrer })
        .from(analyticsEvents)
        .where(and(eq(analyticsEvents.websiteId, d.websites.main), eq(analyticsEvents.path, '/about')));
    const before = (await seen()).length;
    const from = [
      `https://News-${tag}.example.org/article?q=private+words`,
      `https://${domain}/`,
      'not a url',
      undefined,
    ];
    for (const [i, referer] of from.entries()) {
      skip();
      expect((await viaHost(domain, '/about', { referer, address: `127.0.34.${i + 1}` })).status).toBe(200);
    }
    const rows = (await seen()).slice(before).map((r) => r.referrer);
    expect(rows.sort()).toEqual([`news-${tag}.example.org`, null, null, null].sort());
  });

  it('serves the published site at its root, counts its views and takes its forms', async () => {
    const d = await s.seed();
    const [dom] = await db()
      .select({ hostname: domains.hostname })
      .from(domains)
      .where(and(eq(domains.websiteId, d.websites.main), eq(domains.status, 'verified')));
    const domain = dom!.hostname;
    const before = await figures(d.tokens.all);
    const home = await viaHost(domain, '/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('Fresh bread every morning');
    // Links stay on the customer's domain: no /sites/<id> prefix.
    expect(home.html).toContain('href="/about"');
    expect(home.html).not.toContain(`/sites/${d.websites.main}`);
    expect((await viaHost(domain, '/about')).status).toBe(200);
    expect((await viaHost(domain, '/nope')).status).toBe(404);
    const after = await figures(d.tokens.all);
    expect(after.pageViews - before.pageViews).toBe(2);
    expect(after.uniqueVisitors - before.uniqueVisitors).toBe(1);

    const contact = await viaHost(domain, '/contact');
    const f = formOf(contact.html, '/_forms/contact');
    expect(f.action).toBe('/_forms/contact');
    time.advance(5_000);
    const body = new URLSearchParams({
      ...f.hidden,
      name: 'Domain Dora',
      email: 'dora@example.com',
      message: 'Via the domain',
    });
    const sent = await viaHost(domain, f.action, { method: 'POST', body: body.toString() });
    expect(sent).toMatchObject({ status: 303, location: '/_sent/contact' });
    const leads = await s.call(d.tokens.all, 'list_leads', {});
    expect(leads.data!.leads.map((l: { name: { text: string } }) => l.name.text)).toContain('Domain Dora');
    expect((await figures(d.tokens.all)).formSubmissions - after.formSubmissions).toBe(1);

    // Another tenant's site is not reachable through this domain, and an unknown host is not a site.
    expect((await viaHost(domain, `/sites/${d.websites.otherTenant}`)).status).toBe(404);
    expect((await viaHost(`unknown-${uniqueTag()}.example`, '/')).html).not.toContain(
      'Fresh bread every morning',
    );
  });
});

describe('what is stored', () => {
  it('no IP address and no user agent, in any table (and not in the rate limiter’s keys)', async () => {
    const d = await s.seed();
    const base = `${s.url}/sites/${d.websites.main}`;
    const tag = uniqueTag();
    const ua = `${BROWSER_UA} Probe/${tag}`;
    const address = '127.0.34.77';
    const v = as(address, ua);
    for (const p of ['/', '/about', '/contact']) expect((await v.get(base + p)).status).toBe(200);
    const fields = { name: 'Scan Sam', email: 'sam@example.com', message: 'Hello' };
    const sent = await fillAndSend(v, s.url, `${base}/contact`, '/_forms/contact', fields, skip);
    expect(sent.status).toBe(303);
    const svc = /href="([^"]*\/book\/svc_[^"]+)"/.exec((await v.get(`${base}/book`)).html)![1]!;
    const bf = formOf((await v.get(s.url + svc)).html, '/_forms/book/');
    time.advance(5_000);
    const day = new Date(time.clock().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const booked = await v.post(s.url + bf.action, {
      ...bf.hidden,
      date: day,
      time: '10:00',
      name: 'Scan Sam',
      email: 'sam@example.com',
    });
    expect(booked.status).toBe(303);
    const counted = await figures(d.tokens.all);
    expect(counted.formSubmissions).toBeGreaterThan(0);

    const tables = (await db().execute(
      sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    )) as unknown as { rows: Array<{ table_schema: string; table_name: string }> };
    expect(tables.rows.length).toBeGreaterThan(20);
    let rowsScanned = 0;
    for (const t of tables.rows) {
      const r = (await db().execute(
        sql`select x::text as row from ${sql.identifier(t.table_schema)}.${sql.identifier(t.table_name)} x`,
      )) as unknown as { rows: Array<{ row: string }> };
      rowsScanned += r.rows.length;
      for (const { row } of r.rows) {
        expect(row, `${t.table_name} holds the address`).not.toContain(address);
        expect(row, `${t.table_name} holds the user agent`).not.toContain(tag);
        expect(row, `${t.table_name} holds the user agent`).not.toContain('AppleWebKit');
      }
    }
    expect(rowsScanned).toBeGreaterThan(100);
    const redisUrl = process.env.REDIS_URL;
    if (redisUrl) {
      const { Redis } = await import('ioredis');
      const r = new Redis(redisUrl);
      try {
        expect(await r.keys(`*${address}*`)).toEqual([]);
      } finally {
        r.disconnect();
      }
    }
  });

  it('the demo’s month of visits went through the same recording function, and left no old salt', async () => {
    const d = await s.seed();
    const rows = await db()
      .select({ hash: analyticsEvents.visitorHash, path: analyticsEvents.path })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.websiteId, d.websites.main));
    expect(rows.length).toBe(240);
    for (const r of rows) expect(r.hash).toMatch(/^[0-9a-f]{32}$/);
    // On a PostgreSQL shared with other test files, another seed may hold a past salt for a moment.
    if (!process.env.DATABASE_URL) {
      const today = `salt:${utcDay(time.clock())}`;
      const salts = (await db().select({ id: visitorKeys.id }).from(visitorKeys)).map((k) => k.id);
      expect(salts.filter((id) => id.startsWith('salt:') && id < today)).toEqual([]);
    }
    const figures_ = await s.call(d.tokens.all, 'get_analytics_summary', { days: 30 });
    expect(figures_.data!.pageViews).toBeGreaterThan(150);
    expect(figures_.data!.uniqueVisitors).toBeGreaterThan(50);
  });

  it('the salt is per UTC day, shared through the database, and deleted once its day is over', async () => {
    const now = time.clock();
    const today = utcDay(now);
    // Two processes (two caches) on one database get the same salt: a visitor counts once behind a balancer.
    const a = visitorKeyCache(db());
    const b = visitorKeyCache(db());
    const [sa, sb] = await Promise.all([a.saltFor(today, now), b.saltFor(today, now)]);
    expect(sa).toBe(sb);
    expect(await a.formKey()).toBe(await b.formKey());

    // The same visitor on two days is two unrelated hashes.
    const d = await s.seed();
    const who = { address: '127.0.35.1', userAgent: BROWSER_UA };
    // A day no demo seed touches (they go back 29 days), so other test files cannot interfere.
    const longAgo = new Date(now.getTime() - 400 * 86_400_000);
    await recordEvents(
      db(),
      a,
      [
        { websiteId: d.websites.events, kind: 'pageview', path: '/', visitor: who, at: longAgo },
        { websiteId: d.websites.events, kind: 'pageview', path: '/', visitor: who, at: now },
      ],
      now,
    );
    const rows = await db()
      .select({ hash: analyticsEvents.visitorHash })
      .from(analyticsEvents)
      .where(sql`${analyticsEvents.websiteId} = ${d.websites.events}`);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.hash).not.toBe(rows[1]!.hash);
    expect(rows.map((r) => r.hash)).toContain(visitorHash(sa, d.websites.events, who));

    // Rotation leaves today's salt (and the form key) and deletes the earlier day's.
    await rotateVisitorSalts(db(), now);
    const ids = (await db().select({ id: visitorKeys.id }).from(visitorKeys)).map((k) => k.id);
    expect(ids).toContain(`salt:${today}`);
    expect(ids).toContain('form');
    expect(ids).not.toContain(`salt:${utcDay(longAgo)}`);
  });
});

describe.runIf(process.env.DATABASE_URL)('a new day’s salt (PostgreSQL race)', () => {
  it('sixteen processes creating the same day’s salt at once all get the one stored', async () => {
    // A day far ahead, so no other test uses it. Not a day past: the first visit of today in any
    // process on this database deletes every earlier day's salt (rotateVisitorSalts), and one landing
    // in the middle of this race makes the calls after it create a second salt.
    const day = `2999-${String(1 + (process.pid % 12)).padStart(2, '0')}-${String(1 + (Date.now() % 28)).padStart(2, '0')}`;
    const now = time.clock();
    const salts = await Promise.all(
      Array.from({ length: 16 }, () => visitorKeyCache(db()).saltFor(day, now)),
    );
    expect(new Set(salts).size).toBe(1);
    const removed = await db()
      .delete(visitorKeys)
      .where(eq(visitorKeys.id, `salt:${day}`))
      .returning({ id: visitorKeys.id });
    expect(removed).toHaveLength(1);
  });
});
