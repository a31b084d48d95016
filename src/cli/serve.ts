// `sitegate serve`: one process serving /api/mcp and the owner pages. With --demo, the first start
// seeds the demo workspace and every start prints how to connect a client.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { type Demo, seedDemo } from '../db/demo.js';
import { createSitegate } from '../runtime.js';

export type DemoOut = {
  baseUrl: string;
  mcpUrl: string;
  users: Record<'owner' | 'editor' | 'viewer', { email: string; password: string }>;
  websites: Demo['websites'];
  tokens: Pick<Demo['tokens'], 'default' | 'all' | 'workspace'>;
};

export async function serveCommand(opts: { demo?: boolean; demoOut?: string; idp?: boolean }): Promise<void> {
  const config = loadConfig();
  // --idp: the development identity provider in this process (PGlite allows one process per DATA_DIR).
  if (opts.idp) config.oauthIssuer = `http://127.0.0.1:${config.idpPort}`;
  const sg = await createSitegate(config);
  // Loaded only when asked for: oidc-provider is a development dependency of this command.
  const idp = opts.idp
    ? await (await import('../auth/oauth/idp.js')).startIdp({
        db: sg.deps.services.db,
        audience: config.oauthAudience,
        port: config.idpPort,
      })
    : null;
  let demo: DemoOut | null = null;
  if (opts.demo) demo = await ensureDemo(sg.deps.services.db, config.dataDir, config.baseUrl);
  const { url } = await sg.listen();
  const log = sg.deps.services.log;
  log.info({ url, database: sg.database.kind, redis: Boolean(config.redisUrl) }, 'sitegate listening');
  if (demo) {
    if (opts.demoOut) writeFileSync(opts.demoOut, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
    process.stdout.write(demoBanner(demo));
  }
  if (idp) process.stdout.write(`OAuth: development identity provider at ${idp.issuer}\n`);
  const stop = async () => {
    await idp?.close();
    await sg.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Seeds the demo on the first start; later starts reuse what the first one wrote (0600, in DATA_DIR). */
async function ensureDemo(
  db: Parameters<typeof seedDemo>[0],
  dataDir: string,
  baseUrl: string,
): Promise<DemoOut> {
  const file = path.join(dataDir, 'demo.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoOut;
    return { ...saved, baseUrl, mcpUrl: `${baseUrl}/api/mcp` };
  }
  const d = await seedDemo(db);
  const out: DemoOut = {
    baseUrl,
    mcpUrl: `${baseUrl}/api/mcp`,
    users: {
      owner: { email: d.users.owner.email, password: d.users.owner.password },
      editor: { email: d.users.editor.email, password: d.users.editor.password },
      viewer: { email: d.users.viewer.email, password: d.users.viewer.password },
    },
    websites: d.websites,
    tokens: { default: d.tokens.default, all: d.tokens.all, workspace: d.tokens.workspace },
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return out;
}

export function clientConfig(mcpUrl: string, token: string) {
  return {
    mcpServers: {
      sitegate: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } },
    },
  };
}

function demoBanner(d: DemoOut): string {
  return `
Sitegate demo is running.

  MCP URL        ${d.mcpUrl}
  Owner sign-in  ${d.baseUrl}/login   ${d.users.owner.email} / ${d.users.owner.password}
  Token          ${d.tokens.default}   (default scopes: site:read, content:write)

Paste into your MCP client's configuration (Claude Desktop, Cursor, VS Code):

${JSON.stringify(clientConfig(d.mcpUrl, d.tokens.default), null, 2)}

Or try it with MCP Inspector:
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli ${d.mcpUrl} --header "Authorization: Bearer ${d.tokens.default}" --method tools/list

`;
}
