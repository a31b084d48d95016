// Sign-in and sign-out for the owner pages (shared by approvals, Developers settings and connect).
// GET / (the owner's home) is in ./home.tsx.
import type { Hono } from 'hono';
import { checkCredentials } from '../../domain/users/sign-in.js';
import type { AppDeps } from '../deps.js';
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
