// Benchmark of migration fidelity. Each fixture site (test/fixtures/sites/) is served
// on 127.0.0.1, migrated over the MCP client into a fresh workspace, read back through the tools and
// scored: the first corpus against facts declared by hand (test/fixtures/facts.ts), the second (sites of
// other origins, test/fixtures/facts-wild.ts) against what a visitor sees, read from their HTML. Prints
// each corpus's table (the first also on the seven measures of test/fixtures/score.ts) and the time each migration
// took. Scores are fractions of facts right; targets: every first-corpus score >= 0.95, a second-corpus
// mean >= 0.95 with no site below 0.85.
import { eq } from 'drizzle-orm';
import { companies } from '../src/db/schema.js';
import type { SiteFacts } from '../test/fixtures/facts.js';
import { FIXTURES, HELD_OUT } from '../test/fixtures/facts.js';
import { WILD, WILD_HELD_OUT, wildFacts } from '../test/fixtures/facts-wild.js';
import {
  type FixtureRun,
  SCORE_NAMES,
  migrateAndScore,
  scoreTable,
  sevenTable,
  siteMean,
} from '../test/fixtures/score.js';
import { type ServedSite, serveSite } from '../test/fixtures/serve.js';
import { startTestServer } from '../test/helpers/server.js';

export async function bench(): Promise<void> {
  const first = [...FIXTURES, ...HELD_OUT];
  const second = await Promise.all([...WILD, ...WILD_HELD_OUT].map(wildFacts));
  const all: SiteFacts[] = [...first, ...second];
  const served: ServedSite[] = [];
  for (const f of all) served.push(await serveSite(f.name, f.missing));
  const s = await startTestServer({ env: { CRAWL_ALLOW_HOSTS: served.map((x) => x.hostPort).join(',') } });
  try {
    const runs: FixtureRun[] = [];
    const times: string[] = [];
    for (const [i, facts] of all.entries()) {
      const demo = await s.seed();
      await s.sg.deps.services.db
        .update(companies)
        .set({ siteLimit: 20 })
        .where(eq(companies.id, demo.companyId));
      const t0 = performance.now();
      const run = await migrateAndScore(s, demo.tokens.workspace, demo.websites.main, facts, served[i]);
      times.push(`${facts.name} ${Math.round(performance.now() - t0)} ms (migrate + read back + score)`);
      runs.push(run);
    }
    const firstRuns = runs.slice(0, first.length);
    const wild = runs.slice(first.length, first.length + WILD.length);
    const held = runs.slice(first.length + WILD.length);
    console.log(scoreTable(firstRuns));
    const built = firstRuns.filter((r) => FIXTURES.includes(r.facts));
    const worst = Math.min(...built.flatMap((r) => SCORE_NAMES.map((n) => r.scores[n])));
    console.log(
      `lowest score on the fixtures the converter was built against ${worst.toFixed(2)}; target >= 0.95: ${worst >= 0.95 ? 'met' : 'MISSED'} (held out: ${HELD_OUT.map((h) => h.name).join(', ')})`,
    );
    console.log(`\nFirst corpus, seven measures:\n${sevenTable(firstRuns)}`);
    console.log(`\nSecond corpus, seven measures:\n${sevenTable(wild)}`);
    console.log(`\nSecond corpus, held out (written after the converter):\n${sevenTable(held)}`);
    const means = [...wild, ...held].map((r) => siteMean(r.scores));
    const mean = means.reduce((a, b) => a + b, 0) / means.length;
    console.log(
      `second corpus with its held-out sites: mean ${mean.toFixed(3)}, lowest ${Math.min(...means).toFixed(3)}; target mean >= 0.95, none below 0.85: ${mean >= 0.95 && Math.min(...means) >= 0.85 ? 'met' : 'MISSED'}`,
    );
    console.log(times.join('; '));
  } finally {
    await s.close();
    for (const x of served) await x.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
