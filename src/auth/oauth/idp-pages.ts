// The development identity provider's two small pages: sign in and consent (plain HTML, escaped).
import { escapeHtml } from '../../kernel/html.js';
import { SCOPE_LABELS, isScope } from '../../kernel/scopes.js';

/** The sign-in scopes of OpenID Connect, in the words the consent page uses for the service's own. */
const OIDC_LABELS: Record<string, string> = {
  openid: 'Know which Sitegate account you are',
  email: 'See your email address',
  profile: 'See your name',
  offline_access: 'Stay signed in after you close it (a refresh token)',
};

/** What one requested scope lets the client do, in words; its name stays beside them. */
export function scopeLabel(scope: string): string {
  return isScope(scope)
    ? SCOPE_LABELS[scope]
    : (OIDC_LABELS[scope] ?? 'A permission Sitegate does not describe');
}

const frame = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(title)} · Sitegate development sign-in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:420px;margin:3rem auto;padding:0 1rem}
input,button{font:inherit;display:block;width:100%;margin:.4rem 0;padding:.45rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/** Who is asking: the client's registered name, its id only as a detail (ids are random or URLs). */
export type ShownClient = { id: string; name?: string | null };

const clientHtml = (c: ShownClient) =>
  c.name && c.name !== c.id
    ? `<strong>${escapeHtml(c.name)}</strong> <small style="overflow-wrap:anywhere">(client id ${escapeHtml(c.id)})</small>`
    : `Client <code style="overflow-wrap:anywhere">${escapeHtml(c.id)}</code>`;

export function loginPage(uid: string, client: ShownClient, error?: string): string {
  return frame(
    'Sign in',
    `<p>${clientHtml(client)} wants to act for you on Sitegate.</p>
${error ? `<p style="color:#b00020">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Email <input type="email" name="email" required autocomplete="username"></label>
<label>Password <input type="password" name="password" required autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
  );
}

export function consentPage(uid: string, client: ShownClient, scope: string): string {
  const items = scope
    .split(' ')
    .filter(Boolean)
    .map((s) => `<li>${escapeHtml(scopeLabel(s))} <small>(<code>${escapeHtml(s)}</code>)</small></li>`)
    .join('');
  return frame(
    'Allow access',
    `<p>${clientHtml(client)} asks for:</p><ul>${items}</ul>
<p>This lets it sign in as you. Next, on the Sitegate connect page, the site's owner picks the website and
which of these it really gets; until then it can do nothing on any website.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Decline</button></form>`,
  );
}
