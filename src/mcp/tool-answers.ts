// The answers to tools/list and tools/call, computed here and nowhere else. Every path that serves
// them delegates: the SDK's request handlers (src/mcp/server.ts, both protocol eras) and the
// endpoint's direct answers to plain 2025 requests (src/mcp/endpoint.ts), which only frame what
// these functions return. The special cases (an unbound OAuth client, an unknown tool, an approval
// a person still has to give) live here once, so no two paths can drift apart.
import {
  type CallToolResult,
  type InputRequiredResult,
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Progress } from '../domain/context.js';
import type { McpApps } from './apps/apps.js';
import { type ListingFacts, listingFacts } from '../gate/listing.js';
import { type CallDeps, callTool, recordUnknownTool } from './call.js';
import { type StepCodec, approvalAnswer, checkStepState, unboundAnswer } from './human-steps.js';
import type { Principal } from './principal.js';

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

/** Where the human steps send a person, and the codec that signs the state of their rounds. */
export type HumanSteps = { base: string; codec: StepCodec };

/**
 * tools/list for a principal: only what it could run. The `tools` array is the registry's, shared by
 * every principal with the same listing facts (so a caller may serialise it once per distinct array).
 * `apps` is given when the request's client renders MCP Apps (src/mcp/apps/): the tools that show one
 * say so.
 */
export async function listTools(
  deps: CallDeps,
  principal: Principal,
  apps?: McpApps | null,
): Promise<ListToolsResult> {
  const list =
    principal.kind === 'unbound'
      ? { tools: deps.registry.listFor(principal, UNBOUND_LISTING) }
      : {
          tools: deps.registry.listFor(
            principal.caller,
            await listingFacts(deps.services.db, principal.caller, deps.caches.listing),
          ),
        };
  return apps ? apps.list(list) : list;
}

/**
 * One tools/call. `ctx` is the SDK's request context when the SDK serves the request: progress, and
 * on the 2026-07-28 wire the declared capabilities, input responses and signed request state of the
 * human steps. A plain 2025 request carries none of those, so without `ctx` the call reports no
 * progress, finds no state to check and never asks for input: a person's step is answered as the
 * refusal that names the page. `apps` is given when the client renders MCP Apps: an app tool's
 * answer then carries its view.
 * Throws a ProtocolError for an unknown tool (a protocol error, not a tool result) and for request
 * state that belongs to another call.
 */
export async function callToolAnswer(
  deps: CallDeps,
  steps: HumanSteps,
  principal: Principal,
  name: string,
  args: unknown,
  ctx?: ServerContext,
  apps?: McpApps | null,
): Promise<CallToolResult | InputRequiredResult> {
  if (ctx) checkStepState(ctx, name, args);
  if (principal.kind === 'unbound') {
    if (!deps.registry.get(name)) throw unknownTool(name);
    return unboundAnswer(principal, steps.base, ctx, steps.codec);
  }
  const tool = deps.registry.get(name);
  if (!tool) {
    recordUnknownTool(deps, principal.caller, name);
    throw unknownTool(name);
  }
  const result = await callTool(deps, principal.caller, tool, args, ctx && progressOf(ctx));
  if (name === 'confirm_pending_action') {
    const planId = String((args as { planId?: unknown } | undefined)?.planId ?? '');
    return approvalAnswer(result, planId, steps.base, ctx, steps.codec);
  }
  return apps ? apps.answer(deps, principal.caller, name, args, result) : result;
}

function unknownTool(name: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool: ${name.slice(0, 64)}. Call tools/list to see the tools this connection can use.`,
  );
}

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
