// A Sitegate demo server for the MCP benchmark: `serve --demo` on the product's v2 endpoint, or with
// MCP_PATH_UNDER_TEST=v1 on the replaced v1 path (bench/v1-endpoint.ts) behind the same edge.
// Usage: tsx bench/serve.ts <demo-out.json>   (PORT, DATA_DIR… as for `sitegate serve`)
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { seedDemo } from '../src/demo/seed.js';
import { createSitegate } from '../src/runtime.js';
import { v1Endpoint } from './v1-endpoint.js';

const config = loadConfig();
const v1 = process.env.MCP_PATH_UNDER_TEST === 'v1';
const sg = await createSitegate(config, { mcpEndpoint: v1 ? v1Endpoint : undefined });
const demo = await seedDemo(sg.deps.services.db);
const { url } = await sg.listen();
writeFileSync(
  process.argv[2]!,
  JSON.stringify({ mcpUrl: `${url}/api/mcp`, tokens: demo.tokens, pages: demo.pages }),
);
console.log(`bench server (${v1 ? 'v1' : 'v2'}) ready at ${url}`);
