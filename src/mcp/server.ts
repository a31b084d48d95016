// The MCP server on the official SDK v2, built per request for one principal and served for both
// protocol eras by endpoint.ts. Everything costly is built once at load (JSON Schemas and tools/list
// answers in the registry, one JSON Schema validator); per request we only wire handler closures.
// `callTool` stays the one seam between the protocol and the business.
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  isInputRequiredResult,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { McpApps } from './apps/apps.js';
import { APPS_EXTENSION, appsRequested } from './apps/extension.js';
import type { CallDeps } from './call.js';
import { SERVER_INSTRUCTIONS, UNBOUND_INSTRUCTIONS } from './instructions.js';
import { type Principal, principalOf } from './principal.js';
import { PROMPTS } from './prompts.js';
import { RESOURCE_TEMPLATES, listResources, readResource } from './resources.js';
import { type HumanSteps, callToolAnswer, listTools } from './tool-answers.js';

const SERVER_INFO = { name: 'sitegate', title: 'Sitegate', version: '0.1.0' };
const validator = new AjvJsonSchemaValidator();
const resourceList = listResources();
const promptList = PROMPTS.map((p) => p.prompt);

/**
 * Caching hints of the 2026-07-28 wire (SEP-2549). Every answer depends on the connection (its
 * scopes, its creator's live role), so none may be shared: `private`. Lists that depend on live
 * facts are kept briefly; the static ones longer; resource contents are live data (0).
 */
const CACHE_HINTS = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 3_600_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 3_600_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'private' },
} as const;

type Endpoint = { deps: CallDeps; steps: HumanSteps; apps?: McpApps };

function buildServer(e: Endpoint, principal: Principal): Server {
  const { deps } = e;
  // The MCP Apps answers, for a request whose client renders them (src/mcp/apps/extension.ts).
  const appsOf = (ctx: ServerContext) => (e.apps && appsRequested(undefined, ctx) ? e.apps : null);
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: false },
      resources: {},
      prompts: {},
      logging: {},
      // The server's half of the MCP Apps negotiation (extension capabilities: both sides declare).
      ...(e.apps ? { extensions: APPS_EXTENSION } : {}),
    },
    instructions: principal.kind === 'caller' ? SERVER_INSTRUCTIONS : UNBOUND_INSTRUCTIONS,
    jsonSchemaValidator: validator,
    cacheHints: CACHE_HINTS,
    // Multi-round-trip state is signed and bound to the principal; a bad one never reaches a handler.
    requestState: { verify: e.steps.codec.verify },
  });
  // The answers are computed in tool-answers.ts, which the endpoint's direct answers share.
  server.setRequestHandler('tools/list', (_req, ctx) => listTools(deps, principal, appsOf(ctx)));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const { name, arguments: args } = req.params;
    const answer = await callToolAnswer(deps, e.steps, principal, name, args, ctx, appsOf(ctx));
    return isInputRequiredResult(answer) ? answer : server.projectCallToolResult(answer, undefined);
  });
  server.setRequestHandler('resources/list', async () => ({ resources: resourceList }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler('resources/read', async (req) => {
    // An app document is static and public (R-APP-2): readable before a sign-in is bound.
    const app = await e.apps?.read(req.params.uri);
    if (app) return app;
    if (principal.kind === 'unbound') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, UNBOUND_INSTRUCTIONS);
    }
    return readResource(deps, principal.caller, req.params.uri);
  });
  server.setRequestHandler('prompts/list', async () => ({ prompts: promptList }));
  server.setRequestHandler('prompts/get', async (req) => {
    const p = PROMPTS.find((x) => x.prompt.name === req.params.name);
    if (!p) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt ${req.params.name.slice(0, 64)}`,
      );
    }
    return p.render(req.params.arguments ?? {});
  });
  return server;
}

/** The per-request server factory both protocol eras are served from (one definition, no drift). */
export function serverFactory(
  deps: CallDeps,
  steps: HumanSteps,
  apps?: McpApps,
): (authInfo: AuthInfo | undefined) => Server {
  const e: Endpoint = { deps, steps, apps };
  return (authInfo) => buildServer(e, principalOf(authInfo));
}
