// Who is calling /api/mcp, as the HTTP edge established it and the MCP layer receives it (through
// the SDK's pass-through `authInfo`): a connection's caller, or an OAuth client that signed in but
// is not yet bound to a connection (R-AUTH-5: never dead-ended).
import { createHash } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../kernel/caller.js';
import type { OAuthBinding } from '../auth/oauth/delegation.js';
import type { Scope } from '../kernel/scopes.js';

export type Principal =
  | { kind: 'caller'; caller: Caller; key: string }
  | {
      kind: 'unbound';
      key: string;
      clientId: string;
      /** The code the owner enters on /dashboard/connect to bind this sign-in. */
      connectCode?: string;
      /** The scopes the access token carries: the most a binding could grant. */
      scopes: readonly Scope[];
    };

/**
 * A stable, opaque name for whoever holds the credential, the same before and after an OAuth
 * client is bound: signed multi-round-trip state is bound to it (MCP 2026-07-28, mrtr server
 * requirements), so a binding that happens between two rounds does not invalidate the state.
 */
export function principalKey(who: { connectionId: string } | { binding: OAuthBinding }): string {
  if ('connectionId' in who) return `conn:${who.connectionId}`;
  const b = who.binding;
  const digest = createHash('sha256').update(`${b.issuer}\n${b.subject}\n${b.clientId}`).digest('base64url');
  return `oauth:${digest}`;
}

const KEY = 'sitegate.principal';

/** Wraps a principal into the SDK's AuthInfo; the token itself is never passed on. */
export function authInfoFor(principal: Principal): AuthInfo {
  const scopes = principal.kind === 'caller' ? principal.caller.scopes : principal.scopes;
  const clientId = principal.kind === 'caller' ? principal.caller.connectionId : principal.clientId;
  return { token: '', clientId, scopes: [...scopes], extra: { [KEY]: principal } };
}

export function principalOf(info: AuthInfo | undefined): Principal {
  const p = info?.extra?.[KEY] as Principal | undefined;
  // The edge authenticates every request before the MCP layer runs; no principal is a wiring bug.
  if (!p) throw new Error('MCP request without an authenticated principal');
  return p;
}
