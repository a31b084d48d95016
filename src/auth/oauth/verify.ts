// Verification of OAuth access tokens at the endpoint edge (R-AUTH-3, RFC 9068, RFC 8707):
// signature against the issuer's JWKS (found through its discovery document), exact issuer, our
// audience (a token minted for another resource is refused: no token passthrough), expiry and an
// algorithm allow-list (never `none` or HMAC with a public key).
import { type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, jwtVerify } from 'jose';

const ACCESS_TOKEN_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

export type VerifiedAccess = {
  issuer: string;
  subject: string;
  clientId: string;
  scopes: string[];
  /** The person's email, when the issuer puts it in access tokens (shown to the owner, never logged). */
  email?: string;
};

export type AccessTokenVerifier = (token: string, now: Date) => Promise<VerifiedAccess | null>;

/** Finds the issuer's jwks_uri (RFC 8414, then OpenID discovery) and caches the key set. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const base = issuer.replace(/\/$/, '');
  const tried: string[] = [];
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    const url = `${base}${path}`;
    tried.push(url);
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) }).catch(() => null);
    if (!res?.ok) continue;
    const doc = (await res.json()) as { issuer?: string; jwks_uri?: string };
    // RFC 8414 §3.3: the metadata's issuer must be the one we were configured with.
    if (doc.issuer === issuer && typeof doc.jwks_uri === 'string') return new URL(doc.jwks_uri);
  }
  throw new Error(`No usable discovery document for the OAuth issuer (${tried.join(', ')})`);
}

export function accessTokenVerifier(opts: { issuer: string; audience: string }): AccessTokenVerifier {
  let jwks: Promise<JWTVerifyGetKey> | null = null;
  const keys = () => {
    jwks ??= discoverJwksUri(opts.issuer)
      .then((uri) => createRemoteJWKSet(uri, { cooldownDuration: 30_000, timeoutDuration: 5000 }))
      .catch((err) => {
        jwks = null; // try discovery again on the next request
        throw err;
      });
    return jwks;
  };
  return async (token, now) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keys(), {
        issuer: opts.issuer,
        audience: opts.audience,
        algorithms: ACCESS_TOKEN_ALGS,
        currentDate: now,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch {
      return null;
    }
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : payload.azp;
    if (typeof clientId !== 'string' || !clientId || !payload.sub) return null;
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const email =
      typeof payload.email === 'string' && payload.email.length <= 254 ? payload.email : undefined;
    return { issuer: opts.issuer, subject: payload.sub, clientId, scopes, email };
  };
}
