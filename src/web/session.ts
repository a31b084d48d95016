// Signed-in web sessions (owner pages): an HttpOnly, SameSite=Lax cookie holding a random id whose
// SHA-256 is stored, with a per-session CSRF token that every form posts back (R-WEB-2).
// Before sign-in, the login form uses a double-submit CSRF cookie.
// With an https BASE_URL (R-WEB-2) both cookies are `Secure` and carry the `__Host-` prefix
// (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain), so neither a plain-http response nor a sibling
// subdomain can set or overwrite them; behind a TLS-terminating proxy the request itself looks http,
// which is why the base URL decides, not the request.
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { safeEqual, sha256Hex } from '../kernel/tokens.js';
import type { Db } from '../db/client.js';
import { users, webSessions } from '../db/schema.js';

const SESSION_COOKIE = 'sg_session';
const PRE_CSRF_COOKIE = 'sg_csrf';
const SESSION_HOURS = 12;

/** The names and flags of the owner pages' cookies for one base URL. */
export type CookiePolicy = { session: string; csrf: string; secure: boolean };

export function cookiePolicy(baseUrl: string): CookiePolicy {
  const secure = new URL(baseUrl).protocol === 'https:';
  return secure
    ? { session: `__Host-${SESSION_COOKIE}`, csrf: `__Host-${PRE_CSRF_COOKIE}`, secure }
    : { session: SESSION_COOKIE, csrf: PRE_CSRF_COOKIE, secure };
}

export type SessionUser = { id: string; email: string; name: string };
export type WebEnv = { Variables: { user: SessionUser | null; csrf: string } };

const random = () => randomBytes(32).toString('base64url');

export async function startSession(
  c: Context,
  db: Db,
  userId: string,
  now: Date,
  policy: CookiePolicy,
): Promise<void> {
  const id = random();
  await db.insert(webSessions).values({
    idHash: sha256Hex(id),
    userId,
    csrfToken: random(),
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3_600_000),
  });
  setCookie(c, policy.session, id, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: policy.secure,
    maxAge: SESSION_HOURS * 3600,
  });
}

export async function endSession(c: Context, db: Db, policy: CookiePolicy): Promise<void> {
  const id = getCookie(c, policy.session);
  if (id) await db.delete(webSessions).where(eq(webSessions.idHash, sha256Hex(id)));
  deleteCookie(c, policy.session, { path: '/', secure: policy.secure });
}

/**
 * The signed-in user of a request's session cookie, read only: nothing is set. The published site
 * uses it to leave its own members' visits uncounted while setting no cookie on anyone.
 */
export async function sessionOf(c: Context, db: Db, now: Date, policy: CookiePolicy) {
  const id = getCookie(c, policy.session);
  if (!id) return null;
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, csrf: webSessions.csrfToken })
    .from(webSessions)
    .innerJoin(users, eq(users.id, webSessions.userId))
    .where(and(eq(webSessions.idHash, sha256Hex(id)), gt(webSessions.expiresAt, now)));
  return row ?? null;
}

/** Loads the signed-in user (or null) and the CSRF token the page's forms must carry. */
export function sessionMiddleware(
  db: Db,
  clock: () => Date,
  policy: CookiePolicy,
): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    c.set('user', null);
    const row = await sessionOf(c, db, clock(), policy);
    if (row) {
      c.set('user', { id: row.id, email: row.email, name: row.name });
      c.set('csrf', row.csrf);
    }
    if (!c.get('user')) {
      let pre = getCookie(c, policy.csrf);
      if (!pre) {
        pre = random();
        setCookie(c, policy.csrf, pre, { httpOnly: true, sameSite: 'Lax', path: '/', secure: policy.secure });
      }
      c.set('csrf', pre);
    }
    await next();
  };
}

/** Refuses any POST whose form lacks the session's CSRF token (403, nothing done). */
export function csrfGuard(): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const type = c.req.header('content-type') ?? '';
    if (!type.includes('application/x-www-form-urlencoded') && !type.includes('multipart/form-data')) {
      return c.text('Forms only.', 415);
    }
    const form = await c.req.parseBody();
    const sent = typeof form._csrf === 'string' ? form._csrf : '';
    if (!sent || !safeEqual(sent, c.get('csrf'))) {
      return c.text(
        'This form has expired or was not sent from Sitegate. Go back, reload and try again.',
        403,
      );
    }
    return next();
  };
}

/** For pages that need a signed-in user: redirects to /login?next=… otherwise. */
export function requireUser(): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    if (c.get('user')) return next();
    const url = new URL(c.req.url);
    return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
  };
}
