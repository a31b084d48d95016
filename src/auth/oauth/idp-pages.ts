// The development identity provider's two small pages: sign in and consent (plain HTML, escaped).
import { escapeHtml } from '../../kernel/html.js';

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
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join('');
  return frame(
    'Allow access',
    `<p>${clientHtml(client)} asks for:</p><ul>${items}</ul>
<p>The site owner still decides on the Sitegate connect page which of these the client really gets.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Decline</button></form>`,
  );
}
