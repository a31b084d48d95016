// The MCP endpoint: the official SDK's low-level Server behind its web-standard Streamable HTTP
// transport, stateless (any process answers any request). Everything costly is built once at load:
// the JSON Schemas and tools/list answers (registry), one shared JSON Schema validator. Per request we
// only wire handler closures to a fresh transport — no zod shapes, no Ajv, no registerTool calls.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { Caller } from '../auth/caller.js';
import type { Progress } from '../domain/context.js';
import { type CallDeps, callTool } from './call.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { PROMPTS } from './prompts.js';
import { listResources, readResource } from './resources.js';

const SERVER_INFO = { name: 'sitegate', title: 'Sitegate', version: '0.1.0' };
const validator = new AjvJsonSchemaValidator();
const resourceList = listResources();
const promptList = PROMPTS.map((p) => p.prompt);

function buildServer(deps: CallDeps, caller: Caller): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, logging: {} },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: deps.registry.listFor(caller.scopes),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const token = req.params._meta?.progressToken;
    const progress: Progress | undefined =
      token === undefined
        ? undefined
        : async (p, total, message) => {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: p, total, message },
            });
          };
    return callTool(deps, caller, req.params.name, req.params.arguments, progress);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resourceList }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) =>
    readResource(deps, caller, req.params.uri),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptList }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const p = PROMPTS.find((x) => x.prompt.name === req.params.name);
    if (!p) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${req.params.name.slice(0, 64)}`);
    return p.render(req.params.arguments ?? {});
  });
  return server;
}

/** True when any JSON-RPC request in the body asks for progress: only then do we answer with SSE. */
function wantsProgress(body: unknown): boolean {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/** Answers one HTTP request to /api/mcp for an authenticated caller. */
export async function handleMcp(
  deps: CallDeps,
  caller: Caller,
  request: Request,
  parsedBody: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !wantsProgress(parsedBody),
  });
  const server = buildServer(deps, caller);
  await server.connect(transport);
  // No close() afterwards: with a JSON answer nothing is left open, and closing builds a
  // "connection closed" error and aborts signals for every request (measured: ~5% of CPU under
  // load). Server and transport become garbage with the answer; an SSE stream ends by itself.
  return transport.handleRequest(request, { parsedBody });
}
