// `sitegate tools | call | whoami | logout`: the paired CLI speaks MCP with the SDK's Client over
// Streamable HTTP (SPEC §5: no second API), negotiating the newest revision the server speaks.
// `call` prints the envelope and exits 1 on ok:false.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Credential, forgetCredential, readCredential } from './credentials.js';

function need(url?: string): Credential {
  const c = readCredential(url);
  if (!c) throw new CliError('Not paired. Run: sitegate pair --url https://your-sitegate');
  return c;
}

export class CliError extends Error {}

async function withClient<T>(c: Credential, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(
    { name: 'sitegate-cli', version: '0.1.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${c.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${c.token}` } },
    }),
  );
  try {
    return await fn(client);
  } finally {
    await client.close().catch(() => {});
  }
}

export async function toolsCommand(opts: { url?: string }): Promise<number> {
  const tools = await withClient(need(opts.url), async (client) => (await client.listTools()).tools);
  const width = Math.max(...tools.map((t) => t.name.length), 4);
  for (const t of tools) {
    process.stdout.write(`${t.name.padEnd(width)}  ${(t.description ?? '').split('\n')[0]}\n`);
  }
  return 0;
}

export async function callCommand(tool: string, opts: { url?: string; json?: string }): Promise<number> {
  let args: Record<string, unknown> = {};
  if (opts.json) {
    try {
      args = JSON.parse(opts.json) as Record<string, unknown>;
    } catch {
      throw new CliError('--json must be a JSON object.');
    }
  }
  const r = await withClient(need(opts.url), (client) => client.callTool({ name: tool, arguments: args }));
  const content = r.content as Array<{ type: string; text?: string }>;
  const out = r.structuredContent ?? { ok: !r.isError, text: content.map((x) => x.text ?? '').join('\n') };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return r.isError || (out as { ok?: boolean }).ok === false ? 1 : 0;
}

export async function whoamiCommand(opts: { url?: string }): Promise<number> {
  const c = need(opts.url);
  const sites = await withClient(c, async (client) => {
    const r = await client.callTool({ name: 'list_sites', arguments: {} });
    return (
      (r.structuredContent as {
        ok: boolean;
        data?: { sites?: Array<{ websiteId: string; name: string; role: string }> };
      }) ?? null
    );
  });
  process.stdout.write(
    `Server   ${c.url}\nClient   ${c.clientName}\nToken    ${c.token.slice(0, 12)}…\nReach    ${c.reach}\nScopes   ${c.scopes.join(', ')}\n`,
  );
  for (const s of sites?.data?.sites ?? []) {
    process.stdout.write(`Site     ${s.name} (${s.websiteId}), you are ${s.role}\n`);
  }
  return sites?.ok ? 0 : 1;
}

export async function logoutCommand(opts: { url?: string }): Promise<number> {
  const c = forgetCredential(opts.url);
  process.stdout.write(
    c
      ? `Forgot the token for ${c.url}. Revoke the connection on the Developers page to end its access.\n`
      : 'Not paired.\n',
  );
  return 0;
}
