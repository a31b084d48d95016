// The OAuth edge of /api/mcp (R-AUTH-3): verify the access token (verify.ts), find the one
// connection bound to its (issuer, subject, client), sign a five-minute delegation naming it, and
// re-derive the caller from the verified delegation. Never a caller-supplied profile id, never
// "the owner's newest connection": no binding means the `unbound` refusal naming the connect page.
import type { Db } from '../../db/client.js';
import type { Caller } from '../../kernel/caller.js';
import { callerForConnectionId } from '../connections.js';
import { PENDING_SIGN_IN_LIMIT, boundConnection, recordPendingSignIn } from './binding.js';
import type { DelegationSigner } from './delegation.js';
import type { OAuthEdge } from './edge.js';
import type { AccessTokenVerifier } from './verify.js';

export type JwtEdge = OAuthEdge & {
  /** The tool layer's view: the caller named by a delegation, or null if forged, expired or stale. */
  resolveDelegation(jwt: string): Promise<Caller | null>;
};

export function jwtOAuthEdge(deps: {
  db: Db;
  clock: () => Date;
  verify: AccessTokenVerifier;
  delegations: DelegationSigner;
  /** The client's registered name, when the issuer's registrations are known here (idp-store.ts). */
  clientName?: (issuer: string, clientId: string) => Promise<string | null>;
  /**
   * Takes one point of the pending-sign-in limit (PENDING_SIGN_IN_LIMIT) for a key: 0 when allowed,
   * else the seconds to wait (RateLimits.tryWindow).
   */
  limitPending: (window: typeof PENDING_SIGN_IN_LIMIT, key: string) => Promise<number>;
}): JwtEdge {
  const resolveDelegation = async (jwt: string): Promise<Caller | null> => {
    const d = await deps.delegations.verify(jwt, deps.clock());
    if (!d) return null;
    const caller = await callerForConnectionId(deps.db, d.connectionId);
    if (!caller) return null;
    // The connection must still be bound to the same verified client (not revoked and re-made).
    const row = await boundConnection(deps.db, d.binding);
    return row?.id === caller.connectionId ? caller : null;
  };
  return {
    resolveDelegation,
    async authenticate(token) {
      const now = deps.clock();
      const access = await deps.verify(token, now);
      if (!access) return null;
      const binding = { issuer: access.issuer, subject: access.subject, clientId: access.clientId };
      const row = await boundConnection(deps.db, binding);
      if (!row) {
        // The limit comes before any write (R-LIM-4): an unbound token replayed in a loop
        // must not turn every request into an upsert. Per person at the issuer, across their clients.
        const wait = await deps.limitPending(PENDING_SIGN_IN_LIMIT, `${binding.issuer}\n${binding.subject}`);
        if (wait > 0) return { kind: 'rate_limited', seconds: wait };
        const clientName = (await deps.clientName?.(binding.issuer, binding.clientId)) ?? null;
        const connectCode = await recordPendingSignIn(deps.db, binding, access.scopes, now, {
          clientName,
          email: access.email,
        });
        return { kind: 'unbound', clientId: access.clientId, connectCode, binding, scopes: access.scopes };
      }
      const delegation = await deps.delegations.sign({ connectionId: row.id, binding }, now);
      const caller = await resolveDelegation(delegation);
      return caller ? { kind: 'caller', caller, binding } : null;
    },
  };
}
