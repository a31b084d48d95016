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
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { Progress } from '../domain/context.js';
import { type ListingFacts, listingFacts } from '../gate/listing.js';
import { type CallDeps, callTool } from './call.js';
import { type StepCodec, approvalAnswer, checkStepState, stepCodec, unboundAnswer } from './human-steps.js';
import { SERVER_INSTRUCTIONS, UNBOUND_INSTRUCTIONS } from './instructions.js';
import { type Principal, principalOf } from './principal.js';
import { PROMPTS } from './prompts.js';
import { RESOURCE_TEMPLATES, listResources, readResource } from './resources.js';

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

/**
 * What tools/list assumes for an OAuth client not bound yet: what the token's scopes could reach, so
 * a client that cached the list works without a restart once the owner binds it (every call is
 * still decided by the gate).
 */
export const UNBOUND_LISTING: ListingFacts = {
  siteRole: 'owner',
  bestRole: 'owner',
  withheldAreas: [],
  advancedEditor: true,
};

type Endpoint = { deps: CallDeps; base: string; codec: StepCodec };

function progressOf(ctx: ServerContext): Progress | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return async (progress, total, message) => {
    await ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken: token, progress, total, message },
    });
  };
}

function buildServer(e: Endpoint, principal: Principal): Server {
  const { deps } = e;
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, logging: {} },
    instructions: principal.kind === 'caller' ? SERVER_INSTRUCTIONS : UNBOUND_INSTRUCTIONS,
    jsonSchemaValidator: validator,
    cacheHints: CACHE_HINTS,
    // Multi-round-trip state is signed and bound to the principal; a bad one never reaches a handler.
    requestState: { verify: e.codec.verify },
  });
  server.setRequestHandler('tools/list', async () => {
    if (principal.kind === 'unbound') return { tools: deps.registry.listFor(principal, UNBOUND_LISTING) };
    const { caller } = principal;
    const facts = await listingFacts(deps.services.db, caller, deps.caches.listing);
    return { tools: deps.registry.listFor(caller, facts) };
  });
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const { name, arguments: args } = req.params;
    checkStepState(ctx, name, args);
    if (principal.kind === 'unbound') {
      if (!deps.registry.get(name)) throw unknownTool(name);
      return unboundAnswer(principal, e.base, ctx, e.codec);
    }
    const result = await callTool(deps, principal.caller, name, args, progressOf(ctx));
    // Unknown tools are protocol errors (DESIGN §5.1); callTool has recorded the attempt in Activity.
    if (!deps.registry.get(name)) throw unknownTool(name);
    if (name === 'confirm_pending_action') {
      const planId = String((args as { planId?: unknown } | undefined)?.planId ?? '');
      const answer = await approvalAnswer(result, planId, e.base, ctx, e.codec);
      if (answer !== result) return answer;
    }
    return server.projectCallToolResult(result, undefined);
  });
  server.setRequestHandler('resources/list', async () => ({ resources: resourceList }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler('resources/read', async (req) => {
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

function unknownTool(name: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool: ${name.slice(0, 64)}. Call tools/list to see the tools this connection can use.`,
  );
}

/** The per-request server factory both protocol eras are served from (one definition, no drift). */
export function serverFactory(
  deps: CallDeps,
  stateKey: Uint8Array,
): (authInfo: AuthInfo | undefined) => Server {
  const e: Endpoint = { deps, base: deps.services.config.baseUrl, codec: stepCodec(stateKey) };
  return (authInfo) => buildServer(e, principalOf(authInfo));
}
