// The two steps only a person can take, sent to the person rather than the model (R-PLAN-5, R-AUTH-5):
// binding a signed-in OAuth client on /dashboard/connect, and approving a reviewed plan at its
// approveUrl. Clients that declare URL-mode elicitation on the 2026-07-28 wire get an input-required
// result (MCP 2026-07-28, basic/patterns/mrtr) and retry the same call; everyone else gets an ordinary
// refusal whose text names the page, so no client is ever dead-ended.
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import { Refusal } from '../kernel/errors.js';
import { refusalResult } from './envelope.js';
import { type Principal, principalOf } from './principal.js';

/** What a round of a human step carries to the next: which step, and for an approval which plan. */
export type StepState = { k: 'bind' } | { k: 'approve'; planId: string };
export type StepCodec = RequestStateCodec<StepState>;

/** Connect codes live an hour; the state must outlive the person's trip to the connect page. */
const STATE_TTL_SECONDS = 3600;

/**
 * HMAC-signed requestState (the SDK's codec): integrity and expiry, bound to the method and to the
 * principal — so state minted for one connection or OAuth sign-in is refused for any other.
 */
export function stepCodec(key: Uint8Array): StepCodec {
  return createRequestStateCodec<StepState>({
    key,
    ttlSeconds: STATE_TTL_SECONDS,
    bind: (ctx) => `${ctx.mcpReq.method}\u0000${principalOf(ctx.http?.authInfo).key}`,
  });
}

/** True when this request (2026-07-28 envelope) declares URL-mode elicitation. */
function wantsUrlElicitation(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return Boolean(caps?.elicitation?.url);
}

/** The person answered the elicitation with decline or cancel: stop asking, give the plain answer. */
function declined(ctx: ServerContext, key: string): boolean {
  const r = inputResponse(ctx.mcpReq.inputResponses, key);
  return r.kind === 'elicit' && r.action !== 'accept';
}

/**
 * Refuses a retry whose (verified) state belongs to another call: an approval round names one plan,
 * and only confirm_pending_action of that plan may carry it.
 */
export function checkStepState(ctx: ServerContext, tool: string, args: unknown): void {
  const state = ctx.mcpReq.requestState<StepState>();
  if (state?.k !== 'approve') return;
  const planId = (args as { planId?: unknown } | undefined)?.planId;
  if (tool !== 'confirm_pending_action' || planId !== state.planId) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState does not belong to this call.');
  }
}

function connectUrl(base: string, code?: string): string {
  return code ? `${base}/dashboard/connect?code=${encodeURIComponent(code)}` : `${base}/dashboard/connect`;
}

/**
 * Any tool call of a signed-in but unbound OAuth client: tell the person where to bind it. `ctx` is
 * the SDK's request context; a request answered without it (a plain 2025 one) cannot elicit.
 */
export async function unboundAnswer(
  p: Extract<Principal, { kind: 'unbound' }>,
  base: string,
  ctx: ServerContext | undefined,
  codec: StepCodec,
): Promise<CallToolResult | InputRequiredResult> {
  const url = connectUrl(base, p.connectCode);
  const code = p.connectCode ? ` (connect code ${p.connectCode})` : '';
  const message = `This assistant is signed in to Sitegate but not yet connected to a website. The site owner opens ${url}${code}, chooses the website and what the assistant may do, and connects it.`;
  if (ctx && wantsUrlElicitation(ctx) && !declined(ctx, 'connect')) {
    return inputRequired({
      inputRequests: { connect: inputRequired.elicitUrl({ url, message }) },
      requestState: await codec.mint({ k: 'bind' }, ctx),
    });
  }
  return refusalResult(
    new Refusal(
      'not_connected',
      message,
      'Show the person this link. Once the owner has connected it, call the tool again: no restart is needed.',
    ),
  );
}

/**
 * confirm_pending_action on a plan the owner has not approved yet: for a client with URL elicitation,
 * send the person to approveUrl and retry; the retry runs the whole call path again, so every rule of
 * R-PLAN-4 (caller, five minutes, single use, pinned revision) still decides.
 */
export async function approvalAnswer(
  result: CallToolResult,
  planId: string,
  base: string,
  ctx: ServerContext | undefined,
  codec: StepCodec,
): Promise<CallToolResult | InputRequiredResult> {
  const error = (result.structuredContent as { error?: { code?: string } } | undefined)?.error;
  if (error?.code !== 'plan_pending' || !ctx || !wantsUrlElicitation(ctx) || declined(ctx, 'approve')) {
    return result;
  }
  return inputRequired({
    inputRequests: {
      approve: inputRequired.elicitUrl({
        url: `${base}/approvals/${encodeURIComponent(planId)}`,
        message:
          'The site owner reviews exactly what will happen and approves it on this page; the action is carried out once they have.',
      }),
    },
    requestState: await codec.mint({ k: 'approve', planId }, ctx),
  });
}
