// Migration a site owner would accept: fixture sites in the shapes real templates have (a Bootstrap
// blog with mastheads and post previews, a one-page agency site with modals, a landing page with
// testimonials, pricing and FAQ, a résumé, a multi-page business site with a blog and placeholder
// images, three more one-page sites, a studio whose blog index is /blog/) are migrated over the MCP
// client, read back through the tools and scored against facts declared from their HTML
// (test/fixtures/facts.ts, facts-sites.ts, facts-onepage.ts). Each fixture must keep its in-text
// links, be recognised as the blog it is (or is not), and report exactly the images that did not
// come along; the mean over every fixture and score must be at least 0.95. The table is printed.
// Then: what a single-site connection is told, and a re-sync that updates the same sections.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { FIXTURES, HELD_OUT, agency, resume } from '../fixtures/facts.js';
import { type FixtureRun, SCORE_NAMES, migrateAndScore, scoreTable, sevenTable } from '../fixtures/score.js';
import { SITES_DIR, type ServedSite, serveSite } from '../fixtures/serve.js';

let s: TestServer;
const served = new Map<string, ServedSite>();
const runs: FixtureRun[] = [];

beforeAll(async () => {
  for (const f of [...FIXTURES, ...HELD_OUT]) served.set(f.name, await serveSite(f.name, f.missing));
  served.set('resync', await serveSite('agency', agency.missing));
  const hosts = [...served.values()].map((x) => x.hostPort).join(',');
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: hosts } });
});
afterAll(async () => {
  if (runs.length) {
    console.log(`\nMigration fidelity (fraction of declared facts right):\n${scoreTable(runs)}\n`);
    console.log(`\nThe same, on the seven measures of a corpus:\n${sevenTable(runs)}\n`);
  }
  await s?.close();
  for (const x of served.values()) await x.close();
});

async function workspace() {
  const demo = await s.seed();
  await s.sg.deps.services.db
    .update(companies)
    .set({ siteLimit: 20 })
    .where(eq(companies.id, demo.companyId));
  return demo;
}

describe('migration fidelity on fixture sites', () => {
  const cases = [
    ...FIXTURES.map((facts) => ({ facts, min: 0.95 })),
    // The held-out site was written after the converter; a lower bar, reported as it is.
    ...HELD_OUT.map((facts) => ({ facts, min: 0.9 })),
  ];
  for (const { facts, min } of cases) {
    it(`${facts.name}: every score is at least ${min}`, async () => {
      const demo = await workspace();
      const run = await migrateAndScore(
        s,
        demo.tokens.workspace,
        demo.websites.main,
        facts,
        served.get(facts.name),
      );
      runs.push(run);
      console.log(`${facts.name}: ${SCORE_NAMES.map((n) => `${n} ${run.scores[n].toFixed(2)}`).join(', ')}`);
      for (const n of SCORE_NAMES)
        if (run.misses[n].length) console.log(`  ${n} misses: ${run.misses[n].join(' | ')}`);
      for (const n of SCORE_NAMES) {
        // One blog with all its posts, and skippedAssets exactly what did not come along: no slack.
        const floor = n === 'blog' || n === 'skipped' ? 1 : min;
        expect(
          run.scores[n],
          `${facts.name} ${n} misses: ${run.misses[n].join(' | ')}`,
        ).toBeGreaterThanOrEqual(floor);
      }
      // Nothing of the fixture server's address leaks into the draft (links were rewritten).
      const pages = await s.call(demo.tokens.workspace, 'list_pages', { websiteId: run.result.websiteId });
      for (const p of pages.data!.pages as Array<{ pageId: string }>) {
        const g = await s.call(demo.tokens.workspace, 'get_page', {
          websiteId: run.result.websiteId,
          pageId: p.pageId,
        });
        expect(JSON.stringify(g.data)).not.toContain('127.0.0.1');
      }
    });
  }
});

describe('fidelity over every fixture', () => {
  it('the mean of every score over every fixture is at least 0.95', () => {
    expect(runs).toHaveLength(FIXTURES.length + HELD_OUT.length);
    const all = runs.flatMap((r) => SCORE_NAMES.map((n) => r.scores[n]));
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    console.log(`mean fidelity over ${runs.length} fixtures: ${mean.toFixed(3)}`);
    expect(mean).toBeGreaterThanOrEqual(0.95);
  });
});

describe('what the connection is told about the new site', () => {
  it('a single-site connection is told it cannot reach the new site, and where to go', async () => {
    const demo = await workspace();
    const r = await s.call(demo.tokens.default, 'migrate_site_from_url', {
      url: `${served.get('resume')!.base}/`,
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.data!.reach.thisConnection).toBe(false);
    expect(r.data!.reach.how).toContain('/settings/advanced/developers');
    expect(r.data!.reach.how).toContain(r.data!.websiteId);
    // And that is true: the connection cannot read it.
    const read = await s.call(demo.tokens.default, 'list_pages', { websiteId: r.data!.websiteId });
    expect(read.error?.code).toBe('not_found');
    // A workspace connection can, as it is told.
    const ws = await s.call(demo.tokens.workspace, 'list_pages', { websiteId: r.data!.websiteId });
    expect(ws.ok).toBe(true);
    expect(ws.data!.pages[0].title).toBe(resume.pages[0]!.title);
  });
});

describe('re-sync after an upstream insertion', () => {
  it('matches sections by source page and identity: the inserted one is new, the edited one updated in place', async () => {
    const demo = await workspace();
    const site = served.get('resync')!;
    const token = demo.tokens.workspace;
    const first = await s.call(token, 'migrate_site_from_url', {
      websiteId: demo.websites.main,
      url: `${site.base}/`,
    });
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    const websiteId = first.data!.websiteId as string;
    const before = await sectionsOf(token, websiteId);

    // Upstream: a new section between Services and Portfolio, and the team's tagline reworded.
    const html = await readFile(path.join(SITES_DIR, 'agency', 'index.html'), 'utf8');
    const inserted = `<section class="page-section" id="awards"><div class="container"><div class="text-center"><h2 class="section-heading">Awards</h2></div><p>Harbour Web Award 2025 for the Lighthouse site.</p></div></section>\n  <!-- Portfolio Grid-->`;
    const changed = html
      .replace('<!-- Portfolio Grid-->', inserted)
      .replace(
        'Three people, one long table, too much coffee.',
        'Three people, one long table, enough coffee.',
      );
    expect(changed).not.toBe(html);
    site.override('index.html', changed);
    const again = await s.call(token, 'migrate_site_from_url', {
      websiteId: demo.websites.main,
      url: `${site.base}/`,
      mergeIntoWebsiteId: websiteId,
    });
    expect(again.ok, JSON.stringify(again.error)).toBe(true);
    expect(again.data!.merge).toMatchObject({ inserted: 1, updated: 1, conflicts: [], newPages: 0 });
    expect(again.data!.merge.unchanged).toBe(before.length - 1);

    const after = await sectionsOf(token, websiteId);
    expect(after).toHaveLength(before.length + 1);
    const byId = new Map(after.map((x) => [x.sectionId, x]));
    // Every section that was there is still there, under the same id; only the team tagline changed.
    for (const old of before) {
      const now = byId.get(old.sectionId);
      expect(now, old.label).toBeDefined();
      if (old.label === 'Our Amazing Team')
        expect(now!.body).toBe('Three people, one long table, enough coffee.');
      else expect(now!.body).toBe(old.body);
    }
    const added = after.filter((x) => !before.some((b) => b.sectionId === x.sectionId));
    expect(added.map((x) => x.label)).toEqual(['Awards']);
    // Where the new section went is said, so the owner can move it into place.
    expect(again.data!.actionsRequired).toContain(
      '1 section new since the last import was added; on pages that already existed it was placed at the end: move it into place with move_section if needed.',
    );
  });
});

async function sectionsOf(token: string, websiteId: string) {
  const list = await s.call(token, 'list_pages', { websiteId });
  const out: Array<{ sectionId: string; label: string; body: unknown }> = [];
  for (const p of list.data!.pages as Array<{ pageId: string }>) {
    const g = await s.call(token, 'get_page', { websiteId, pageId: p.pageId });
    for (const x of g.data!.sections as Array<{ sectionId: string; content: Record<string, unknown> }>)
      out.push({ sectionId: x.sectionId, label: String(x.content.heading ?? ''), body: x.content.body });
  }
  return out;
}
