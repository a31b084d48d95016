// Sign-in and sign-out for the owner pages (shared by approvals, Developers settings and connect).
import type { Hono } from 'hono';
import { MAIL_STATE, outgoingMailOf } from '../../domain/mail/status.js';
import { checkCredentials } from '../../domain/users/sign-in.js';
import type { AppDeps } from '../deps.js';
import { Layout } from '../pages/layout.js';
import { LoginPage } from '../pages/login.js';
import { type WebEnv, endSession, startSession } from '../session.js';

/** Only same-site paths may be a post-login destination (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.includes('\\')
    ? next
    : '/';
}

const LOGIN_BUCKET = { key: 'login', perMinute: 10 };

export function mountLogin(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock } = deps.services;
  app.get('/', async (c) => {
    const user = c.get('user');
    const mail = user ? await outgoingMailOf(db, user.id) : [];
    return c.html(
      <Layout title="Home" user={user} csrf={c.get('csrf')}>
        <div class="card">
          <h1>Sitegate</h1>
          <p>
            The Model Context Protocol endpoint of your website: AI assistants work on your business with your
            authority.
          </p>
          <p>
            MCP URL: <code>{`${deps.services.config.baseUrl}/api/mcp`}</code>
          </p>
        </div>
        {user ? (
          <div class="card">
            <h2>Outgoing email</h2>
            {deps.services.mail?.enabled ? null : (
              <p>
                <strong>No mail server is configured (SMTP_URL): these messages have not left.</strong>
              </p>
            )}
            {mail.length === 0 ? (
              <p>No email yet.</p>
            ) : (
              <table>
                <tr>
                  <th>Website</th>
                  <th>Message</th>
                  <th>State</th>
                  <th>Queued</th>
                </tr>
                {mail.map((m) => (
                  <tr>
                    <td>{m.site}</td>
                    <td>{m.subject}</td>
                    <td data-mail-state={m.status}>{MAIL_STATE[m.status] ?? m.status}</td>
                    <td>{m.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</td>
                  </tr>
                ))}
              </table>
            )}
          </div>
        ) : null}
      </Layout>,
    );
  });
  app.get('/login', (c) => {
    if (c.get('user')) return c.redirect(safeNext(c.req.query('next')), 303);
    return c.html(<LoginPage csrf={c.get('csrf')} next={safeNext(c.req.query('next'))} />);
  });
  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const email = String(form.email ?? '')
      .trim()
      .toLowerCase();
    const password = String(form.password ?? '');
    const next = safeNext(form.next);
    const fail = (msg: string, status: 401 | 429) =>
      c.html(<LoginPage csrf={c.get('csrf')} next={next} error={msg} email={email} />, status);
    try {
      await deps.limits.consumeKey(LOGIN_BUCKET, email || 'blank');
    } catch {
      return fail('Too many attempts. Wait a minute and try again.', 429);
    }
    const user = await checkCredentials(db, email, password);
    if (!user) return fail('That email and password do not match.', 401);
    await startSession(c, db, user.id, clock());
    return c.redirect(next, 303);
  });
  app.post('/logout', async (c) => {
    await endSession(c, db);
    return c.redirect('/login', 303);
  });
}
