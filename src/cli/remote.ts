// `sitegate tools | call | whoami | logout [--revoke]`: the paired CLI speaks MCP with the SDK's Client over
// Streamable HTTP (R-SURF-1: no second API), negotiating the newest revision the server speaks.
// `call` prints the envelope and exits 1 on ok:false.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Credential, forgetCredential, readCredential } from './credentials.js';

function need(url?: string): Credential {
  const c = readCredential(url);
  if (!c) throw new CliError('Not paired. Run: sitegate pair --url https://your-sitegate');
  return c;
}

class CliError extends Error {}

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

export async function logoutCommand(opts: { url?: string; revoke?: boolean }): Promise<number> {
  if (opts.revoke) {
    const c = readCredential(opts.url);
    if (!c) {
      process.stdout.write('Not paired.\n');
      return 0;
    }
    // Revoked on the server first: the token is forgotten only once it no longer works there, so a
    // failed revoke leaves it stored for another try. 401 means it was already revoked or replaced.
    const res = await fetch(`${c.url}/v1/cli/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${c.token}` },
    }).catch((err: Error) => {
      throw new CliError(
        `Could not reach ${c.url} to revoke the token (${err.message}). It is still stored.`,
      );
    });
    if (res.status !== 204 && res.status !== 401) {
      throw new CliError(`${c.url} answered ${res.status} to the revoke; the token is still stored.`);
    }
    forgetCredential(c.url);
    process.stdout.write(
      res.status === 204
        ? `Revoked the connection and forgot the token for ${c.url}.\n`
        : `The token for ${c.url} was already revoked or replaced; forgot it.\n`,
    );
    return 0;
  }
  const c = forgetCredential(opts.url);
  process.stdout.write(
    c
      ? `Forgot the token for ${c.url}. It still works until revoked: use logout --revoke, or revoke the connection on the Developers page.\n`
      : 'Not paired.\n',
  );
  return 0;
}
