// Benchmark of issue 16: migration fidelity. Each fixture site (test/fixtures/sites/) is served on
// 127.0.0.1, migrated over the MCP client into a fresh workspace, read back through the tools and
// scored against its declared facts (test/fixtures/facts.ts); prints the score table and the time
// each migration took. Scores are fractions of declared facts right (target: every one >= 0.95).
import { eq } from 'drizzle-orm';
import { companies } from '../src/db/schema.js';
import { FIXTURES, HELD_OUT } from '../test/fixtures/facts.js';
import { type FixtureRun, SCORE_NAMES, migrateAndScore, scoreTable } from '../test/fixtures/score.js';
import { type ServedSite, serveSite } from '../test/fixtures/serve.js';
import { startTestServer } from '../test/helpers/server.js';

export async function bench(): Promise<void> {
  const served: ServedSite[] = [];
  const all = [...FIXTURES, ...HELD_OUT];
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
    console.log(scoreTable(runs));
    const built = runs.filter((r) => FIXTURES.includes(r.facts));
    const worst = Math.min(...built.flatMap((r) => SCORE_NAMES.map((n) => r.scores[n])));
    console.log(
      `lowest score on the fixtures the converter was built against ${worst.toFixed(2)}; target >= 0.95: ${worst >= 0.95 ? 'met' : 'MISSED'} (held out: ${HELD_OUT.map((h) => h.name).join(', ')})`,
    );
    console.log(times.join('; '));
  } finally {
    await s.close();
    for (const x of served) await x.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
