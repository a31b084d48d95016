// `sitegate idp`: a development identity provider built on oidc-provider, so a newcomer
// can try OAuth locally and tests run against a real authorization server. Dynamic client
// registration (RFC 7591), PKCE, loopback redirect URIs on any port (RFC 8252 §7.3: clients default
// to application_type native), sign-in with the users table, and JWT access tokens for exactly one
// resource, the MCP URL (RFC 8707 resource indicators, RFC 9068 format). Client ID Metadata Documents
// (an https URL as client_id, the 2025-11-25 MCP spec's recommended registration) are accepted through
// oidc-provider's experimental implementation (draft-02) and fetched through the SSRF guard
// (idp-fetch.ts). Registrations, sessions, grants and keys live in Sitegate's database (idp-store.ts),
// so a restart keeps clients signed in; anyone may register, within bounds (idp-registration.ts).
// Production points OAUTH_ISSUER at any OIDC issuer instead.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type JWK, exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, errors } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { signIn } from '../../domain/users/sign-in.js';
import { type RateLimits, createRateLimits, signInLimiter } from '../../limits/rate-limits.js';
import { SCOPES } from '../../kernel/scopes.js';
import { escapeHtml } from '../../kernel/html.js';
import { customHost } from '../../kernel/custom-host.js';
import type { Resolver } from '../../net/ssrf.js';
import { type IdpFetch, METADATA_MAX_BYTES, guardedIdpFetch } from './idp-fetch.js';
import { consentPage, loginPage } from './idp-pages.js';
import { MAX_CLIENTS, isRegistration, registrationGate } from './idp-registration.js';
import { drizzleAdapter, loadOrCreateKeys } from './idp-store.js';

export type Idp = { issuer: string; provider: Provider; close(): Promise<void> };

export type IdpOptions = {
  db: Db;
  /** The MCP URL: the only resource tokens are issued for, and their audience. */
  audience: string;
  host?: string;
  port?: number;
  /** Private signing keys (JWKS); when omitted, the keys kept in the database (tests pass their own). */
  jwks?: { keys: JWK[] };
  accessTokenTtlSeconds?: number;
  /** The sign-in limits (shared with /login when run inside `serve`); default: this process's own. */
  limits?: RateLimits;
  /** Resolves client metadata documents' host names (tests pass their DNS server); default: the system's. */
  resolve?: Resolver;
  /** The most client registrations kept at once (default MAX_CLIENTS). */
  maxClients?: number;
};

export async function signingKeys(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }] };
}

async function emailOf(db: Db, userId: string): Promise<string | undefined> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}

function configuration(
  opts: IdpOptions,
  keys: { jwks: { keys: JWK[] }; cookieKeys: string[] },
  outgoing: IdpFetch,
): Configuration {
  const { db, audience } = opts;
  return {
    adapter: drizzleAdapter(db),
    // Every outgoing request (client metadata documents) through the SSRF guard, capped (idp-fetch.ts).
    fetch: outgoing.fetch,
    fetchResponseBodyLimits: {
      'client_id metadata document': METADATA_MAX_BYTES,
      jwks_uri: METADATA_MAX_BYTES,
      sector_identifier_uri: METADATA_MAX_BYTES,
    },
    clients: [],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: { keys: keys.cookieKeys },
    // The owner's pages name the person by email (R-AUTH-5): access tokens carry it.
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const email = await emailOf(db, token.accountId);
      return email ? { email } : undefined;
    },
    scopes: ['openid', 'offline_access', ...SCOPES],
    claims: { openid: ['sub'], email: ['email'] },
    clientDefaults: {
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    responseTypes: ['code'], // OAuth 2.1: authorization code only, no implicit grant
    pkce: { required: () => true },
    ttl: {
      AccessToken: opts.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      Grant: 14 * 86_400,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 14 * 86_400,
      Session: 14 * 86_400,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      // The 2025-11-25 MCP spec's recommended registration: client_id is an https URL whose metadata
      // document the provider fetches. Experimental in oidc-provider 9 (draft-02), acknowledged here.
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== audience) throw new errors.InvalidTarget();
          return {
            scope: SCOPES.join(' '),
            audience,
            accessTokenTTL: opts.accessTokenTtlSeconds ?? 3600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const [user] = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(eq(users.id, id));
      if (!user) return undefined;
      return { accountId: user.id, claims: () => ({ sub: user.id, email: user.email }) };
    },
  };
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startIdp(opts: IdpOptions): Promise<Idp> {
  const host = opts.host ?? '127.0.0.1';
  // Listen first so the issuer URL carries the real port (port 0 picks a free one).
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${port}`;
  const stored = await loadOrCreateKeys(opts.db, issuer);
  const keys = { jwks: opts.jwks ?? stored.jwks, cookieKeys: stored.cookieKeys };
  const outgoing = guardedIdpFetch(opts.resolve);
  const provider = new Provider(issuer, configuration(opts, keys, outgoing));
  const limits = opts.limits ?? createRateLimits({ perConnection: 1, perWorkspace: 1, prefix: 'idp' });
  const limit = signInLimiter(limits);
  const admitRegistration = registrationGate({
    db: opts.db,
    limits,
    maxClients: opts.maxClients ?? MAX_CLIENTS,
  });
  const callback = provider.callback();

  const send = (res: http.ServerResponse, status: number, html: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  };

  const interaction = async (req: http.IncomingMessage, res: http.ServerResponse, action?: string) => {
    const details = await provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id ?? '');
    // Named by its registered client_name (dynamic registration or metadata document), not its id.
    const found = await provider.Client.find(clientId).catch(() => undefined);
    const client = { id: clientId, name: typeof found?.clientName === 'string' ? found.clientName : null };
    if (req.method === 'GET') {
      if (details.prompt.name === 'login') return send(res, 200, loginPage(details.uid, client));
      return send(res, 200, consentPage(details.uid, client, String(details.params.scope ?? '')));
    }
    const form = await readForm(req);
    if (action === 'login') {
      // The same sign-in as /login, with the same limits (R-WEB-3).
      const outcome = await signIn(
        { db: opts.db, limit },
        {
          email: form.get('email') ?? '',
          password: form.get('password') ?? '',
          address: req.socket.remoteAddress ?? 'unknown',
        },
      );
      if (!outcome.ok && outcome.reason === 'rate_limited') {
        res.setHeader('Retry-After', String(outcome.seconds));
        return send(
          res,
          429,
          loginPage(details.uid, client, 'Too many attempts. Wait a few minutes and try again.'),
        );
      }
      if (!outcome.ok) return send(res, 401, loginPage(details.uid, client, 'Wrong email or password.'));
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: outcome.user.id } },
        { mergeWithLastSubmission: false },
      );
    }
    if (action === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user declined.' },
        { mergeWithLastSubmission: false },
      );
    }
    // Consent: grant exactly what the prompt says is missing.
    const accountId = details.session?.accountId;
    if (!accountId) return send(res, 400, 'No session.');
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) return send(res, 400, 'Unknown grant.');
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    const grantId = await grant.save();
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };

  const ownHost = new URL(issuer).hostname;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    // Only the issuer's own host: a customer's domain pointed at this machine gets no sign-in page
    // and no cookie (the same rule as the service's pages, src/web/routes/site.ts).
    if (customHost(req.headers.host, ownHost)) return send(res, 404, 'Not found');
    const path = (req.url ?? '').split('?')[0]!;
    if (isRegistration(req, path)) return admitRegistration(req, res, () => callback(req, res));
    const m = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(path);
    if (!m) return callback(req, res);
    interaction(req, res, m[2]).catch((err: unknown) => {
      if (!res.headersSent) send(res, 400, `Sign-in failed: ${escapeHtml(String((err as Error).message))}`);
    });
  });

  return {
    issuer,
    provider,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }).then(() => outgoing.close()),
  };
}
