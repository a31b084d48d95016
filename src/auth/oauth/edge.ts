// The seam where OAuth access tokens are verified at the endpoint edge (R-AUTH-3).
// The OAuth area provides an implementation; without OAUTH_ISSUER no JWT is ever accepted.
import type { Caller } from '../../kernel/caller.js';
import type { OAuthBinding } from './delegation.js';

export type OAuthOutcome =
  | { kind: 'caller'; caller: Caller; binding: OAuthBinding }
  /** A valid token whose (subject, client) pair is not yet bound to a connection by the owner. */
  | { kind: 'unbound'; clientId: string; connectCode?: string; binding: OAuthBinding; scopes: string[] }
  /** A valid but unbound token sent faster than the pending-sign-in limit allows: nothing written. */
  | { kind: 'rate_limited'; seconds: number }
  | null;

export type OAuthEdge = {
  authenticate(token: string): Promise<OAuthOutcome>;
};
