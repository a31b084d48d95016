// Sign-in and sign-out for the owner pages (shared by approvals, Developers settings and connect).
// GET / (the owner's home) is in ./home.tsx.
import type { Hono } from 'hono';
import { normaliseEmail, signIn } from '../../domain/users/sign-in.js';
import { signInLimiter } from '../../limits/rate-limits.js';
import type { AppDeps } from '../deps.js';
import { LoginPage } from '../pages/login.js';
import { type WebEnv, cookiePolicy, endSession, startSession } from '../session.js';
import { clientAddress } from '../client-address.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The post-login destination: a path on this site, or `/` (no open redirect, R-WEB-3). The
 * target is parsed by the WHATWG URL parser against the base URL, exactly as a browser will resolve
 * the Location header, and must keep the base's origin; what is returned is the parser's own
 * serialisation of path, query and fragment. Browsers drop tabs and newlines inside URLs and read `\`
 * as `/`, so `/<TAB>/evil.example` or `/\evil.example` is another host: refused. Control characters
 * are refused before parsing (a newline in a Location header would also break the response).
 */
export function safeNext(next: unknown, base: string): string {
  if (typeof next !== 'string' || next.length > 2048 || !next.startsWith('/') || CONTROL.test(next))
    return '/';
  let target: URL;
  let origin: string;
  try {
    origin = new URL(base).origin;
    target = new URL(next, base);
  } catch {
    return '/';
  }
  if (target.origin !== origin) return '/';
  const path = `${target.pathname}${target.search}${target.hash}`;
  // A scheme-relative result would leave the site when written back as a relative Location.
  return path.startsWith('//') || path.startsWith('/\\') ? '/' : path;
}

export function mountLogin(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock } = deps.services;
  const base = deps.services.config.baseUrl;
  const cookies = cookiePolicy(base);
  app.get('/login', (c) => {
    if (c.get('user')) return c.redirect(safeNext(c.req.query('next'), base), 303);
    return c.html(<LoginPage csrf={c.get('csrf')} next={safeNext(c.req.query('next'), base)} />);
  });
  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const email = normaliseEmail(String(form.email ?? ''));
    const password = String(form.password ?? '');
    const next = safeNext(form.next, base);
    const fail = (msg: string, status: 401 | 429) =>
      c.html(<LoginPage csrf={c.get('csrf')} next={next} error={msg} email={email} />, status);
    const outcome = await signIn(
      { db, limit: signInLimiter(deps.limits) },
      { email, password, address: clientAddress(c) },
    );
    if (!outcome.ok && outcome.reason === 'rate_limited') {
      c.header('Retry-After', String(outcome.seconds));
      const minutes = Math.max(1, Math.ceil(outcome.seconds / 60));
      return fail(
        `Too many attempts from your network. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        429,
      );
    }
    if (!outcome.ok) return fail('That email and password do not match.', 401);
    const user = outcome.user;
    await startSession(c, db, user.id, clock(), cookies);
    return c.redirect(next, 303);
  });
  app.post('/logout', async (c) => {
    await endSession(c, db, cookies);
    return c.redirect('/login', 303);
  });
}
