// The SDK's own OAuth client side for tests: an in-memory OAuthClientProvider (dynamic registration,
// PKCE) whose "browser" is plain HTTP with a cookie jar driving the identity provider's sign-in and
// consent pages, returning the authorization code from the loopback redirect.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  /** Registered without a port; used with one (RFC 8252 §7.3: any loopback port is accepted). */
  constructor(private readonly port = 49_152) {}

  get redirectUrl() {
    return `http://127.0.0.1:${this.port}/callback`;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Sitegate OAuth test client',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Follows the authorization URL through sign-in and consent; returns the code from the redirect. */
export async function signInAndConsent(
  authorizationUrl: URL,
  email: string,
  password: string,
  /** When given, every page the identity provider showed, in order. */
  seen?: string[],
): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl.toString();
  let form: Record<string, string> | null = null;
  for (let step = 0; step < 12; step++) {
    const res: Response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    form = null;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      const code = next.searchParams.get('code');
      if (next.pathname === '/callback') {
        if (!code) throw new Error(`authorization refused: ${next.search}`);
        return code;
      }
      url = next.toString();
      continue;
    }
    const html: string = await res.text();
    seen?.push(html);
    const action: string | undefined = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected page (${res.status}): ${html.slice(0, 300)}`);
    url = new URL(action, url).toString();
    form = action.endsWith('/login') ? { email, password } : {};
  }
  throw new Error('too many steps in the authorization flow');
}
