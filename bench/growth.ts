// Benchmark of cost as data grows: the same calls and pages on the demo (small) and on a website with
// thousands of pages and hundreds of thousands of customer records (large), in one run, one request at
// a time, the two alternated so the machine's noise falls on both alike. Prints, per call, the p50 and
// p95 on each, their ratio (large / small), and the SQL statements the request issued on each; then the
// process's peak resident memory. PostgreSQL only (DATABASE_URL): it seeds by bulk SQL into a database
// of its own, which it drops at the end.
//
// Large = a second demo whose main website gets GROWTH_PAGES pages (5 sections each), GROWTH_LEADS
// leads, a quarter as many bookings and contacts, GROWTH_EVENTS analytics events and as many Activity
// lines, GROWTH_SITES more websites in its workspace, and decided plans. GROWTH_SCALE (default 1)
// multiplies them all: 0.1 for a quick look. GROWTH_KEEP=1 keeps the database afterwards.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { type Demo, seedDemo } from '../src/demo/seed.js';
import { rollUpAnalytics, rollUpToday } from '../src/domain/analytics/rollup.js';
import { publishDraft } from '../src/domain/sites/publish.js';
import { asPerson } from '../src/domain/as-person.js';
import { erasePerson } from '../src/domain/crm/erase.js';
import { ownerPublish, ownerPublishView } from '../src/plans/owner-publish.js';
import { createSitegate } from '../src/runtime.js';
import { freePort } from '../scripts/free-port.js';

const SCALE = Number(process.env.GROWTH_SCALE ?? 1);
const n = (v: number) => Math.max(1, Math.round(v * SCALE));
const SHAPE = {
  pages: n(Number(process.env.GROWTH_PAGES ?? 2000)),
  leads: n(Number(process.env.GROWTH_LEADS ?? 200_000)),
  events: n(Number(process.env.GROWTH_EVENTS ?? 2_000_000)),
  sites: n(Number(process.env.GROWTH_SITES ?? 500)),
  plans: n(1000),
};
const ROUNDS = Number(process.env.GROWTH_ROUNDS ?? 15);

// The memory measured is a serving process's: the heap flags the sitegate command runs with (its
// first line, bin/sitegate.mjs), set before the service starts; the baseline compiler is PGlite's only.
const SITEGATE_FLAGS = (readFileSync(new URL('../bin/sitegate.mjs', import.meta.url), 'utf8')
  .split('\n')[0]!
  .match(/--[a-z-]+=\d+/g) ?? []) as string[];
for (const flag of SITEGATE_FLAGS) setFlagsFromString(flag);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

// Every statement the process sends goes through pg.Client#query: counted while a request runs.
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/** Clones one row of `table` `count` times with SQL overrides per generated number `g` (bulk, in the database). */
async function clone(
  c: pg.Client,
  table: string,
  where: string,
  count: number,
  overrides: Record<string, string>,
) {
  const set = Object.entries(overrides)
    .map(([k, v]) => `'${k}', ${v}`)
    .join(', ');
  await c.query(
    `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(t) || jsonb_build_object(${set}))).*
     from (select * from ${table} where ${where} limit 1) t, generate_series(1, ${count}) g`,
  );
}

async function seedLarge(url: string, d: Demo): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const w = `'${d.websites.main}'`;
  const began = performance.now();
  // Pages, each with the home page's sections.
  await clone(c, 'pages', `website_id = ${w} and id = '${d.pages.about}'`, SHAPE.pages, {
    id: `'page_g' || g`,
    slug: `'grown-' || g`,
    title: `'Grown page ' || g`,
    position: '100 + g',
  });
  await c.query(
    // The stored columns by name: the generated ones (digest, placeholder) are the database's to fill.
    `insert into sections (id, website_id, page_id, type, content, layout, hidden, position, rev,
       external_key, import_fingerprint, created_at, updated_at)
     select s.id || '_' || p.id, s.website_id, p.id, s.type, s.content, s.layout, s.hidden, s.position, s.rev,
       s.external_key, s.import_fingerprint, s.created_at, s.updated_at
     from sections s, pages p where s.page_id = '${d.pages.home}' and p.website_id = ${w} and p.id like 'page_g%'`,
  );
  for (const [table, count] of [
    ['leads', SHAPE.leads],
    ['bookings', Math.round(SHAPE.leads / 4)],
    ['contacts', Math.round(SHAPE.leads / 4)],
  ] as const) {
    await clone(c, table, `website_id = ${w}`, count, {
      id: `'${table}_g' || g`,
      email: `'person' || g || '@example.com'`,
      created_at: `now() - g * interval '13 seconds'`,
      starts_at: `now() + g * interval '1 hour'`,
      ends_at: `now() + g * interval '1 hour' + interval '30 minutes'`,
    });
  }
  // Both number their rows from a sequence: ids after the highest, then the sequence moved past them.
  for (const [table, at, step] of [
    // Spread evenly over the last 90 days, as a site with steady traffic has them.
    [
      'analytics_events',
      'occurred_at',
      `g * interval '${Math.floor(7_776_000_000 / SHAPE.events)} milliseconds'`,
    ],
    ['activity', 'created_at', `g * interval '15 seconds'`],
  ] as const) {
    await clone(c, table, `website_id = ${w}`, SHAPE.events, {
      id: `(select max(id) from ${table}) + g`,
      [at]: `now() - ${step}`,
      // As the site records them: a visitor's hash is salted per UTC day (about 3,000 visitors a
      // day, a few pages each), on the site's pages.
      ...(table === 'analytics_events'
        ? {
            visitor_hash: `md5(((now() - ${step}) at time zone 'UTC')::date::text || '-' || (g % 3000))`,
            path: `(array['/', '/about', '/menu', '/contact', '/blog'])[1 + g % 5]`,
          }
        : {}),
    });
    await c.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  }
  await clone(c, 'websites', `id = '${d.websites.events}'`, SHAPE.sites, {
    id: `'site_g' || g`,
    name: `'Grown site ' || g`,
  });
  await c.query('analyze');
  await c.end();
  console.log(
    `seeded large: ${SHAPE.pages} pages (${SHAPE.pages * 5} sections), ${SHAPE.leads} leads, ${Math.round(SHAPE.leads / 4)} bookings and contacts, ${SHAPE.events} analytics events and Activity lines, ${SHAPE.sites} more websites in ${((performance.now() - began) / 1000).toFixed(0)} s`,
  );
}

export async function bench(): Promise<void> {
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    console.log('growth: needs PostgreSQL (DATABASE_URL); skipped.');
    return;
  }
  const name = `sitegate_growth_${Date.now().toString(36)}`;
  const root = new pg.Client({ connectionString: admin });
  await root.connect();
  await root.query(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  const url = u.toString();
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitegate-growth-')),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_CONNECTION: '10000000',
    RATE_LIMIT_PER_WORKSPACE: '10000000',
  });
  const database = await openDatabase({ databaseUrl: url });
  const sg = await createSitegate(config, { database, log: pino({ level: 'silent' }) });
  const { url: base } = await sg.listen();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const small = await seedDemo(database.db, { tag: 'small' });
    const large = await seedDemo(database.db, { tag: 'large' });
    await seedLarge(url, large);
    // The service rolls each day up as it ends; the seeded history is rolled up at once here.
    const r0 = performance.now();
    const days = await rollUpAnalytics(database.db, new Date(), 400);
    // And today's figures so far, as the service builds them every minute.
    await rollUpToday(database.db, new Date());
    console.log(`analytics rollup of ${days} days: ${((performance.now() - r0) / 1000).toFixed(1)} s`);
    const rssSeeded = process.memoryUsage().rss;
    // The seeding is the benchmark's own work in this process: the serving peak is counted from here.
    const seedingPeak = peak;
    peak = rssSeeded;

    const raised: string[] = [];
    let mark = peak;
    const stepPeak = (step: string) => {
      peak = Math.max(peak, process.memoryUsage().rss);
      if (peak > mark + 8 * 2 ** 20) raised.push(`${step} +${((peak - mark) / 2 ** 20).toFixed(0)} MB`);
      mark = peak;
    };
    const signIn = async (email: string) => {
      let cookie = '';
      const keep = (r: Response) => {
        for (const l of r.headers.getSetCookie())
          cookie = [cookie, l.split(';')[0]].filter(Boolean).join('; ');
      };
      const login = await fetch(`${base}/login`);
      keep(login);
      const csrf = /name="_csrf" value="([^"]*)"/.exec(await login.text())![1]!;
      const r = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: 'owner-demo-pass', _csrf: csrf, next: '/' }),
        redirect: 'manual',
      });
      keep(r);
      return cookie;
    };
    let id = 0;
    const call = async (d: Demo, name: string, args: Record<string, unknown>) => {
      const r = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${d.tokens.all}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method: 'tools/call',
          params: { name, arguments: { websiteId: d.websites.main, ...args } },
        }),
      });
      const body = (await r.json()) as {
        result?: { structuredContent?: { ok: boolean; data?: Record<string, unknown> } };
      };
      return body.result?.structuredContent?.ok ? (body.result.structuredContent.data ?? {}) : null;
    };
    // A publish plan of the whole large draft, decided SHAPE.plans times (kept 7 days after), and one
    // pending plan on each site for the plan lists and the plan review.
    // Both drafts go live, then one section changes on each: the publish reviews show one change, and
    // the live site, its search and its business card read the whole published site.
    for (const d of [small, large]) {
      await database.db.transaction((tx) => publishDraft(tx, d.websites.main, new Date()));
      await call(d, 'update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading: 'Fresh bread, every morning' },
      });
    }
    stepPeak('first publish of both sites and one edit each');
    const decided = await call(large, 'prepare_publish', {});
    const pc = new pg.Client({ connectionString: url });
    await pc.connect();
    // Column by column: the subject is copied as stored, never rebuilt as JSON per row.
    await pc.query(
      `insert into pending_actions (id, kind, website_id, connection_id, creator_id, subject, pinned_revision, summary, status, created_at, expires_at)
       select 'plan_g' || g, kind, website_id, connection_id, creator_id, subject, pinned_revision, summary, 'declined', created_at, now() + interval '7 days'
       from pending_actions, generate_series(1, ${SHAPE.plans}) g where id = $1`,
      [decided!.planId],
    );
    await pc.end();
    const pending = {
      small: (await call(small, 'prepare_publish', {}))!.planId as string,
      large: (await call(large, 'prepare_publish', {}))!.planId as string,
    };
    const who = {
      small: await signIn(small.users.owner.email),
      large: await signIn(large.users.owner.email),
    };
    const demos = { small, large };
    stepPeak('prepare_publish, decided plans, sign-in');

    /** `setup` and `after` run before and after each timed `run`, untimed. */
    type Leg = {
      name: string;
      setup?: (d: Demo) => Promise<void>;
      after?: (d: Demo) => Promise<void>;
      run: (d: Demo, cookie: string) => Promise<number>;
    };
    // One section edited, so there is one change to prepare or publish.
    let edits = 0;
    const editOne = async (d: Demo) => {
      const done = await call(d, 'update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading: `Fresh bread, batch ${++edits}` },
      });
      if (!done) throw new Error('the edit before a publish failed');
    };
    const page = (name: string, path: (d: Demo) => string): Leg => ({
      name,
      run: async (d, cookie) => {
        const r = await fetch(base + path(d), { headers: { cookie }, redirect: 'manual' });
        await r.arrayBuffer();
        return r.status;
      },
    });
    const tool = (name: string, args: (d: Demo) => Record<string, unknown> = () => ({})): Leg => ({
      name,
      run: async (d) => ((await call(d, name, args(d))) ? 200 : 500),
    });
    let erased = 0;
    const site = (d: Demo) => `/dashboard/sites/${d.websites.main}`;
    const legs: Leg[] = [
      page('owner home /', () => '/'),
      page('/approvals', () => '/approvals'),
      page('plan review /approvals/:id', (d) => `/approvals/${d === small ? pending.small : pending.large}`),
      page('owner publish review', (d) => `${site(d)}/publish`),
      page('site console', site),
      page('page editor (home)', (d) => `${site(d)}/pages/${d.pages.home}`),
      page('section form (hero)', (d) => `${site(d)}/pages/${d.pages.home}/sections/${d.sections.hero}`),
      page('customers', (d) => `${site(d)}/customers`),
      page('bookings', (d) => `${site(d)}/bookings`),
      page('services', (d) => `${site(d)}/services`),
      page('analytics page', (d) => `${site(d)}/analytics`),
      page('members', (d) => `${site(d)}/members`),
      page('live page /about', (d) => `/sites/${d.websites.main}/about`),
      {
        name: "visitor's search_site",
        run: async (d) => {
          const r = await fetch(`${base}/sites/${d.websites.main}/_api/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: ++id,
              method: 'tools/call',
              params: { name: 'search_site', arguments: { query: 'bread' } },
            }),
          });
          const body = (await r.json()) as { result?: { isError?: boolean } };
          return r.status === 200 && !body.result?.isError ? 200 : 500;
        },
      },
      { name: 'prepare_publish (one change)', setup: editOne, run: tool('prepare_publish').run },
      // The owner publishes in the console (the same domain function its form posts to), one change;
      // then one more edit, so every other leg finds one change pending, as before.
      {
        name: 'owner publish (one change)',
        setup: editOne,
        after: editOne,
        run: async (d) => {
          const services = sg.deps.services;
          const view = await ownerPublishView(services, d.users.owner.id, d.websites.main);
          const r = await ownerPublish(services, d.users.owner.id, d.websites.main, view.revision);
          return r.published ? 200 : 409;
        },
      },
      tool('list_pages'),
      tool('get_page', (d) => ({ pageId: d.pages.home })),
      tool('list_draft_changes'),
      tool('get_site_overview'),
      tool('list_leads', () => ({ limit: 20 })),
      tool('get_analytics_summary', () => ({ days: 30 })),
      tool('list_sites', () => ({ websiteId: undefined })),
      // The owner erases one person (the console's erase, through the same domain function); on the
      // large site a person with a lead, a booking and a contact, a different one each round.
      {
        name: 'erase one person',
        run: async (d) => {
          const email = `person${++erased}@example.com`;
          await asPerson(sg.deps.services, d.users.owner.id, 'customers.erase', d.websites.main, (ctx) =>
            erasePerson(ctx, email),
          );
          return 200;
        },
      },
    ];
    const times = new Map<
      string,
      { small: number[]; large: number[]; qs: number; ql: number; status: string }
    >();
    for (const leg of legs) times.set(leg.name, { small: [], large: [], qs: 0, ql: 0, status: '' });
    for (let round = 0; round <= ROUNDS; round++) {
      for (const leg of legs) {
        const t = times.get(leg.name)!;
        for (const size of ['small', 'large'] as const) {
          statements = 0;
          await leg.setup?.(demos[size]);
          statements = 0;
          const before = peak;
          const t0 = performance.now();
          const status = await leg.run(demos[size], who[size]);
          const ms = performance.now() - t0;
          await leg.after?.(demos[size]);
          peak = Math.max(peak, process.memoryUsage().rss);
          // Which request raised the serving peak, and by how much (the first time it did).
          if (peak > before + 8 * 2 ** 20)
            raised.push(
              `${leg.name} (${size}, round ${round}) +${((peak - before) / 2 ** 20).toFixed(0)} MB`,
            );
          if (round === 0) {
            // The first round warms caches and plans; its statement count is the request's own.
            if (size === 'small') t.qs = statements;
            else t.ql = statements;
            if (status !== 200) t.status += ` ${size} answered ${status}`;
            continue;
          }
          t[size].push(ms);
        }
      }
    }
    console.log(`\n${ROUNDS} rounds, one request at a time; ms; statements per request (first round)`);
    console.log(
      'call or page                  small p50/p95      large p50/p95     p95 ratio  statements small→large',
    );
    for (const [name, t] of times) {
      const r = pct(t.large, 95) / pct(t.small, 95);
      console.log(
        `${name.padEnd(28)} ${pct(t.small, 50).toFixed(1).padStart(7)} /${pct(t.small, 95).toFixed(1).padStart(7)}  ${pct(t.large, 50).toFixed(1).padStart(7)} /${pct(t.large, 95).toFixed(1).padStart(7)}  ${r.toFixed(1).padStart(6)}×   ${t.qs} → ${t.ql}${t.status}`,
      );
    }
    console.log(
      `\nV8 flags as the sitegate command: ${SITEGATE_FLAGS.join(' ') || 'none'}` +
        `\nraised the serving peak: ${raised.join('; ') || 'nothing by more than 8 MB'}` +
        `\nresident memory: peak ${(seedingPeak / 2 ** 20).toFixed(0)} MB while seeding, ${(rssSeeded / 2 ** 20).toFixed(0)} MB after it, peak ${(peak / 2 ** 20).toFixed(0)} MB while serving`,
    );
  } catch (err) {
    console.error('growth failed:', err);
    throw err;
  } finally {
    clearInterval(sampler);
    await sg.close();
    await database.close().catch(() => {});
    // GROWTH_KEEP=1 keeps the seeded database for a look at its plans (psql), and says its name.
    if (process.env.GROWTH_KEEP === '1') console.log(`kept the database ${name}`);
    else await root.query(`drop database if exists ${name} with (force)`);
    await root.end();
  }
}
