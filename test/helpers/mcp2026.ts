// Raw requests on the 2026-07-28 wire, for checks the SDK clients would hide (status codes, error
// codes, headers): the per-request `_meta` envelope and the MCP-Protocol-Version / Mcp-Method /
// Mcp-Name headers, each of which a test can leave out or falsify.
export const MODERN = '2026-07-28';

export type RawOptions = {
  /** Headers to add or override (a value of null leaves the header out). */
  headers?: Record<string, string | null>;
  /** Client capabilities declared in the envelope. */
  capabilities?: Record<string, unknown>;
  /** Leave the `_meta` envelope out entirely. */
  noEnvelope?: boolean;
  id?: number;
};

export function modernBody(method: string, params: Record<string, unknown> = {}, o: RawOptions = {}) {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': o.capabilities ?? {},
    'io.modelcontextprotocol/clientInfo': { name: 'sitegate-raw-test', version: '1.0.0' },
  };
  const p = o.noEnvelope ? params : { ...params, _meta: { ...(params._meta as object), ...envelope } };
  return { jsonrpc: '2.0', id: o.id ?? 1, method, params: p };
}

/** The `Mcp-Name` a request names: the tool, prompt or resource it is about. */
function nameOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return params.name as string;
  if (method === 'resources/read') return params.uri as string;
  return undefined;
}

export async function postModern(
  mcpUrl: string,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  o: RawOptions = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  const name = nameOf(method, params);
  if (name !== undefined) headers['mcp-name'] = name;
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify(modernBody(method, params, o)),
  });
  const text = await res.text();
  let body: any = null;
  if (res.headers.get('content-type')?.includes('text/event-stream')) {
    // The last `data:` line of the stream is the response.
    const data = text.split('\n').filter((l) => l.startsWith('data:'));
    body = data.length ? JSON.parse(data[data.length - 1]!.slice(5)) : null;
  } else if (text) {
    body = JSON.parse(text);
  }
  return { status: res.status, body, headers: res.headers };
}
