// Signing in with an email and password: the one function behind /login and the development
// identity provider (R-WEB-3). Two limits apply before the password is checked:
// - per (account, client address): one sender gets a few guesses at one account, then waits. An
//   attacker elsewhere never locks the real owner out: the owner's own address has its own count.
// - per client address: one sender cannot spray guesses over many accounts.
// An unknown email is checked against a dummy hash so the answer takes as long as for a known one, and
// the refusal never says which of email or password was wrong.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { addressKey } from '../../kernel/address-key.js';
import { verifyPassword } from './passwords.js';

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Attempts allowed at one account from one address, and from one address overall (15 minutes each). */
export const SIGN_IN_LIMITS = {
  perAccountAndAddress: { key: 'sign-in-acct', points: 10, seconds: 900 },
  perAddress: { key: 'sign-in-addr', points: 50, seconds: 900 },
} as const;

export type SignedIn = { id: string; email: string; name: string };

type Window = { key: string; points: number; seconds: number };
/** Windowed limits (RateLimits): `take` is 0 when allowed, else seconds until it allows again. */
export type SignInLimiter = {
  take(window: Window, key: string): Promise<number>;
  refund(window: Window, key: string): Promise<void>;
};

export type SignInOutcome =
  | { ok: true; user: SignedIn }
  | { ok: false; reason: 'wrong_credentials' }
  | { ok: false; reason: 'rate_limited'; seconds: number };

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Checks an email and password from a client address, inside both limits. */
export async function signIn(
  deps: { db: Db; limit: SignInLimiter },
  input: { email: string; password: string; address: string },
): Promise<SignInOutcome> {
  const email = normaliseEmail(input.email).slice(0, 320);
  // One IPv6 host holds a whole /64: the limits count the sender, not each address it can pick.
  const address = addressKey(input.address || 'unknown');
  // Keys name no person: the email is hashed before it becomes part of a limiter key.
  // Every attempt takes a point before the password is checked (a guess past the limit is never
  // checked, right or wrong); a right password gives its points back, so only failures add up.
  const accountKey = `${createHash('sha256').update(email).digest('hex')}|${address}`;
  const perAddress = await deps.limit.take(SIGN_IN_LIMITS.perAddress, address);
  if (perAddress > 0) return { ok: false, reason: 'rate_limited', seconds: perAddress };
  const perAccount = await deps.limit.take(SIGN_IN_LIMITS.perAccountAndAddress, accountKey);
  if (perAccount > 0) return { ok: false, reason: 'rate_limited', seconds: perAccount };
  const user = await checkCredentials(deps.db, email, input.password);
  if (!user) return { ok: false, reason: 'wrong_credentials' };
  await deps.limit.refund(SIGN_IN_LIMITS.perAddress, address);
  await deps.limit.refund(SIGN_IN_LIMITS.perAccountAndAddress, accountKey);
  return { ok: true, user };
}

/** The password check alone, without limits: only `signIn` calls it. */
async function checkCredentials(db: Db, email: string, password: string): Promise<SignedIn | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  const ok = await verifyPassword(password.slice(0, 1024), user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}
