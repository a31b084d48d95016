// Scale-out (R-SCALE-1): two Sitegate instances with their own pools and memory, one PostgreSQL and
// one Redis. A token minted through one works on the other, a revocation through one is seen by the
// other at once, and the rate limit is shared. Runs in CI's PostgreSQL + Redis pass.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { revokeConnection } from '../../src/auth/connections.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { type Sitegate, createSitegate } from '../../src/runtime.js';
import { uniqueTag } from '../helpers/db.js';
import { freePort, postMcp } from '../helpers/server.js';
import pino from 'pino';
import { and, eq, gte } from 'drizzle-orm';
import { analyticsEvents, companies, sections, websiteMembers } from '../../src/db/schema.js';

const url = process.env.DATABASE_URL;
const redis = process.env.REDIS_URL;

const instances: Array<{ sg: Sitegate; base: string }> = [];
let demo: Demo;

beforeAll(async () => {
  if (!url || !redis) return;
  const prefix = `scale:${uniqueTag()}`;
  for (let i = 0; i < 2; i += 1) {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      DATABASE_URL: url,
      REDIS_URL: redis,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_CONNECTION: '6',
    });
    const sg = await createSitegate(config, {
      database: await openDatabase({ databaseUrl: url }),
      log: pino({ level: 'silent' }),
      backgroundJobs: false, // as every in-process test server: no sweeps of the shared database
      limitPrefix: prefix,
    });
    const { url: base } = await sg.listen();
    instances.push({ sg, base });
  }
  demo = await seedDemo(instances[0]!.sg.deps.services.db, { tag: uniqueTag() });
});
afterAll(async () => {
  for (const i of instances) {
    await i.sg.close();
    await i.sg.database.close();
  }
});

async function call(
  base: string,
  token: string,
  name = 'list_sites',
  args: Record<string, unknown> = {},
): Promise<number | string> {
  const r = await postMcp(`${base}/api/mcp`, token, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  if (r.status !== 200) return r.status;
  const body = (await r.json()) as {
    result: { structuredContent: { ok: boolean; error?: { code: string } } };
  };
  return body.result.structuredContent.ok ? 'ok' : body.result.structuredContent.error!.code;
}

it.runIf(url && redis)('any instance answers any request; limits and revocations are shared', async () => {
  const [a, b] = instances as [{ base: string; sg: Sitegate }, { base: string; sg: Sitegate }];
  const outcomes = [];
  for (let i = 0; i < 7; i += 1) outcomes.push(await call(i % 2 ? b.base : a.base, demo.tokens.default));
  expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'rate_limited']);
  expect(await call(b.base, demo.tokens.all)).toBe('ok');
  await revokeConnection(a.sg.deps.services.db, demo.users.owner.id, demo.connections.all, new Date());
  expect(await call(b.base, demo.tokens.all)).toBe(401);
});

it.runIf(url && redis)(
  'a role change or a withheld area made through one instance holds at the next call on the other, whose caches were warm',
  async () => {
    const [a, b] = instances as [{ base: string; sg: Sitegate }, { base: string; sg: Sitegate }];
    const d = await seedDemo(a.sg.deps.services.db, { tag: uniqueTag() });
    const db = a.sg.deps.services.db;
    const read = () => call(b.base, d.tokens.all, 'get_page', { pageId: d.pages.about });
    const edit = () =>
      call(b.base, d.tokens.all, 'update_section_text', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        text: { heading: 'Fresh bread daily' },
      });
    // B learns who the token is, the gate's facts and the page (cached under the workspace version).
    expect(await read()).toBe('ok');
    const member = and(
      eq(websiteMembers.websiteId, d.websites.main),
      eq(websiteMembers.userId, d.users.owner.id),
    );
    await db.update(websiteMembers).set({ role: 'viewer' }).where(member);
    expect(await edit()).toBe('role_insufficient');
    await db.update(websiteMembers).set({ role: 'owner' }).where(member);
    expect(await read()).toBe('ok');
    await db
      .update(companies)
      .set({ withheldAreas: ['site'] })
      .where(eq(companies.id, d.companyId));
    expect(await read()).toBe('area_disabled');
    // Nothing was written by the refused edit: the hero keeps its seeded heading.
    const [hero] = await db.select().from(sections).where(eq(sections.id, d.sections.hero));
    expect(JSON.stringify(hero!.content)).not.toContain('Fresh bread daily');
  },
);

it.runIf(url && redis)('an edit through one instance is read at once through the other', async () => {
  const [a, b] = instances as [{ base: string; sg: Sitegate }, { base: string; sg: Sitegate }];
  const d = await seedDemo(a.sg.deps.services.db, { tag: uniqueTag() });
  const heading = async () => {
    const r = await postMcp(`${b.base}/api/mcp`, d.tokens.all, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_page', arguments: { pageId: d.pages.home } },
    });
    const body = (await r.json()) as {
      result: {
        structuredContent: {
          data: { sections: Array<{ sectionId: string; content: { heading?: string } }> };
        };
      };
    };
    return body.result.structuredContent.data.sections.find((s) => s.sectionId === d.sections.hero)?.content
      .heading;
  };
  const before = await heading();
  expect(before).toBeTruthy();
  expect(await heading()).toBe(before); // now cached on B
  const edited = await call(a.base, d.tokens.all, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: 'Edited through A' },
  });
  expect(edited).toBe('ok');
  expect(await heading()).toBe('Edited through A');
});

it.runIf(url && redis)(
  'a visitor served by both instances is one visitor (the daily salt is shared)',
  async () => {
    const [a, b] = instances as [{ base: string; sg: Sitegate }, { base: string; sg: Sitegate }];
    const site = (await seedDemo(a.sg.deps.services.db, { tag: uniqueTag() })).websites.main;
    const ua =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    for (const base of [a.base, b.base, a.base, b.base]) {
      const r = await fetch(`${base}/sites/${site}/about`, { headers: { 'user-agent': ua } });
      expect(r.status).toBe(200);
    }
    const rows = await a.sg.deps.services.db
      .select({ hash: analyticsEvents.visitorHash })
      .from(analyticsEvents)
      .where(
        and(
          eq(analyticsEvents.websiteId, site),
          eq(analyticsEvents.path, '/about'),
          gte(analyticsEvents.occurredAt, new Date(Date.now() - 60_000)),
        ),
      );
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(1);
  },
);
