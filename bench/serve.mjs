// A Sitegate demo server for the MCP benchmarks: `serve --demo` on the product's v2 endpoint, or with
// MCP_PATH_UNDER_TEST=v1 on the replaced v1 path (bench/v1-endpoint.ts) behind the same edge.
// Usage: node [--import tsx] bench/serve.mjs <demo-out.json> [--reuse]   (PORT, DATA_DIR… as for `sitegate serve`)
// --reuse: another process already seeded the demo into this database and wrote the file.
// BENCH_TAG seeds a tagged demo (PostgreSQL databases that outlive a run); BENCH_LIMIT_PREFIX
// isolates the Redis rate-limit keys of one run.
// Plain JavaScript, so that BENCH_COMPILED=1 runs the compiled product (dist/, `npm run build`) with no
// TypeScript loader in the process, as `sitegate serve` does; through tsx it imports src/.
import { existsSync, writeFileSync } from 'node:fs';

const from = process.env.BENCH_COMPILED ? '../dist' : '../src';
const { loadConfig } = await import(`${from}/config.js`);
const { seedDemo } = await import(`${from}/demo/seed.js`);
const { createSitegate } = await import(`${from}/runtime.js`);

const [out, flag] = process.argv.slice(2);
if (!out) throw new Error('usage: bench/serve.mjs <demo-out.json> [--reuse]');
const v1 = process.env.MCP_PATH_UNDER_TEST === 'v1';
if (v1 && from === '../dist')
  throw new Error('the v1 path (bench/v1-endpoint.ts) runs from src/ through tsx only');
const config = loadConfig();
const sg = await createSitegate(config, {
  mcpEndpoint: v1 ? (await import('./v1-endpoint.js')).v1Endpoint : undefined,
  limitPrefix: process.env.BENCH_LIMIT_PREFIX || undefined,
});
const reuse = flag === '--reuse' && existsSync(out);
const demo = reuse ? null : await seedDemo(sg.deps.services.db, { tag: process.env.BENCH_TAG || undefined });
const { url } = await sg.listen();
if (demo) {
  writeFileSync(
    out,
    JSON.stringify({
      mcpUrl: `${url}/api/mcp`,
      tokens: demo.tokens,
      pages: demo.pages,
      sections: demo.sections,
    }),
  );
}
console.log(`bench server (${v1 ? 'v1' : 'v2'}) ready at ${url}`);
// A clean exit on SIGINT, so `--cpu-prof` (bench/profile.ts) writes its profile.
process.once('SIGINT', () => void sg.close().finally(() => process.exit(0)));
