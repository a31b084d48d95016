// A Sitegate demo server for the MCP benchmarks: `serve --demo` on the product's v2 endpoint, or with
// MCP_PATH_UNDER_TEST=v1 on the replaced v1 path (bench/v1-endpoint.ts) behind the same edge.
// Usage: tsx bench/serve.ts <demo-out.json> [--reuse]   (PORT, DATA_DIR… as for `sitegate serve`)
// --reuse: another process already seeded the demo into this database and wrote the file.
// BENCH_TAG seeds a tagged demo (PostgreSQL databases that outlive a run); BENCH_LIMIT_PREFIX
// isolates the Redis rate-limit keys of one run.
import { existsSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { seedDemo } from '../src/demo/seed.js';
import { createSitegate } from '../src/runtime.js';
import { v1Endpoint } from './v1-endpoint.js';

const config = loadConfig();
const v1 = process.env.MCP_PATH_UNDER_TEST === 'v1';
const sg = await createSitegate(config, {
  mcpEndpoint: v1 ? v1Endpoint : undefined,
  limitPrefix: process.env.BENCH_LIMIT_PREFIX || undefined,
});
const reuse = process.argv[3] === '--reuse' && existsSync(process.argv[2]!);
const demo = reuse ? null : await seedDemo(sg.deps.services.db, { tag: process.env.BENCH_TAG || undefined });
const { url } = await sg.listen();
if (demo) {
  writeFileSync(
    process.argv[2]!,
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
