// How the development identity provider fetches a Client ID Metadata Document (an https URL used as
// client_id, draft-ietf-oauth-client-id-metadata-document): through the crawler's SSRF guard
// (src/net/ssrf.ts), not oidc-provider's own dispatcher. That one checks the peer only once the
// connection (TLS included) is open, so a client_id on loopback or a private address reached the
// listener and its answer time told open ports from closed ones. The guard refuses a literal
// non-public address and a name resolving to one before any connection, pins the checked address,
// and re-checks the connected socket. Redirects are not followed (the document must answer 200
// itself), the body is capped at METADATA_MAX_BYTES and the whole fetch at METADATA_TIMEOUT_MS.
import type { Configuration } from 'oidc-provider';
import { guardedFetch } from '../../net/fetch.js';
import { type Guard, type Resolver, createGuard } from '../../net/ssrf.js';

export const METADATA_MAX_BYTES = 5 * 1024;
const METADATA_TIMEOUT_MS = 2_500;
const USER_AGENT = 'Sitegate-IdP/1.0 (client metadata)';

export type IdpFetch = { fetch: NonNullable<Configuration['fetch']>; close(): Promise<void> };

/** oidc-provider's `fetch` (every outgoing request it makes), through one guard of its own. */
export function guardedIdpFetch(resolve?: Resolver): IdpFetch {
  const guard: Guard = createGuard({ resolve, connectTimeoutMs: METADATA_TIMEOUT_MS });
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // oidc-provider passes its own dispatcher and signal in `init`: neither is used.
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') throw new Error('only GET is fetched');
    const url = input instanceof Request ? input.url : String(input);
    const got = await guardedFetch(guard, url, {
      maxBytes: METADATA_MAX_BYTES,
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRedirects: 0,
      accept: 'application/json',
      userAgent: USER_AGENT,
    });
    const headers = new Headers({ 'content-type': got.contentType });
    if (got.cacheControl) headers.set('cache-control', got.cacheControl);
    if (got.expires) headers.set('expires', got.expires);
    return new Response(new Uint8Array(got.body), { status: got.status, headers });
  };
  return { fetch, close: () => guard.close() };
}
