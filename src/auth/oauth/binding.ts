// Binding a verified OAuth client to exactly one connection (R-AUTH-3, R-AUTH-5). An unbound
// (issuer, subject, client) is remembered as a pending sign-in (pairings, kind 'oauth') so the owner
// sees it on /dashboard/connect; binding creates an ordinary connection of kind 'oauth'.
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import { connections, pairings } from '../../db/schema.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { isScope } from '../../kernel/scopes.js';
import type { Reach } from '../../kernel/caller.js';
import { type ConnectionRow, createConnection } from '../connections.js';
import { ownedWebsites } from '../owner.js';
import { newUserCode, normaliseUserCode } from '../pairing.js';
import { sha256Hex } from '../../kernel/tokens.js';
import type { OAuthBinding } from './delegation.js';
import { transaction, workspaceOf } from '../../db/transactions.js';

const PENDING_TTL_MS = 3_600_000;

/** Unbound calls (each refreshes the pending sign-in) allowed per person at an issuer per minute. */
export const PENDING_SIGN_IN_LIMIT = { key: 'oauth-pending', points: 30, seconds: 60 } as const;

const pendingKey = (b: OAuthBinding) => sha256Hex(`oauth\n${b.issuer}\n${b.subject}\n${b.clientId}`);

/** The live connection bound to this triple, or null. The partial unique index makes it at most one. */
export async function boundConnection(db: Db, b: OAuthBinding): Promise<ConnectionRow | null> {
  const [row] = await db
    .select()
    .from(connections)
    .where(
      and(
        eq(connections.oauthIssuer, b.issuer),
        eq(connections.oauthSubject, b.subject),
        eq(connections.oauthClientId, b.clientId),
        isNull(connections.revokedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Remembers (or refreshes) an unbound sign-in for the connect page and returns its connect code: a
 * short code the client shows its user, which the owner enters on /dashboard/connect. This works with
 * any issuer, whose subjects are not Sitegate user ids.
 */
export async function recordPendingSignIn(
  db: Db,
  b: OAuthBinding,
  scopes: string[],
  now: Date,
  shown: { clientName?: string | null; email?: string } = {},
): Promise<string> {
  const expiresAt = new Date(now.getTime() + PENDING_TTL_MS);
  const [row] = await db
    .insert(pairings)
    .values({
      id: newId('pair'),
      kind: 'oauth',
      deviceCodeHash: pendingKey(b),
      userCode: newUserCode(),
      clientName: (shown.clientName ?? b.clientId).slice(0, 80),
      scopesRequested: scopes.filter(isScope),
      expiresAt,
      oauthIssuer: b.issuer,
      oauthSubject: b.subject,
      oauthClientId: b.clientId,
      oauthEmail: shown.email ?? null,
    })
    .onConflictDoUpdate({ target: pairings.deviceCodeHash, set: { expiresAt, status: 'pending' } })
    .returning({ userCode: pairings.userCode });
  return row!.userCode;
}

/** The live pending OAuth sign-in with this connect code, or null. */
export async function pendingSignInByCode(db: Db, code: string, now: Date): Promise<PendingSignIn | null> {
  const userCode = normaliseUserCode(code);
  if (!userCode) return null;
  const [r] = await db
    .select()
    .from(pairings)
    .where(
      and(
        eq(pairings.kind, 'oauth'),
        eq(pairings.status, 'pending'),
        eq(pairings.userCode, userCode),
        gt(pairings.expiresAt, now),
      ),
    )
    .limit(1);
  return r ? toPending(r) : null;
}

const toPending = (r: typeof pairings.$inferSelect): PendingSignIn => ({
  id: r.id,
  code: r.userCode,
  clientId: r.oauthClientId!,
  clientName: r.clientName,
  email: r.oauthEmail,
  issuer: r.oauthIssuer!,
  subject: r.oauthSubject!,
  createdAt: r.createdAt,
});

export type PendingSignIn = {
  id: string;
  code: string;
  clientId: string;
  /** The client's registered `client_name`, or its id when the issuer does not tell us one. */
  clientName: string;
  /** The signed-in person's email, when the access token carried one. */
  email: string | null;
  issuer: string;
  subject: string;
  createdAt: Date;
};

/**
 * The signed-in user's pending OAuth sign-ins: those whose subject is this user (the development
 * identity provider uses Sitegate user ids as subjects).
 */
export async function pendingSignIns(db: Db, userId: string, now: Date): Promise<PendingSignIn[]> {
  const rows = await db
    .select()
    .from(pairings)
    .where(
      and(
        eq(pairings.kind, 'oauth'),
        eq(pairings.status, 'pending'),
        eq(pairings.oauthSubject, userId),
        gt(pairings.expiresAt, now),
      ),
    )
    .orderBy(desc(pairings.createdAt));
  return rows.map(toPending);
}

/**
 * The person dismisses one of their own pending sign-ins (an assistant they abandoned). False when
 * it is not theirs, not pending, or gone; nothing is written then. A client that calls again signs
 * in again and is listed again.
 */
export async function dismissPendingSignIn(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const done = await db
    .update(pairings)
    .set({ status: 'declined' })
    .where(
      and(
        eq(pairings.id, id),
        eq(pairings.kind, 'oauth'),
        eq(pairings.status, 'pending'),
        eq(pairings.oauthSubject, userId),
        gt(pairings.expiresAt, now),
      ),
    )
    .returning({ id: pairings.id });
  return done.length === 1;
}

export type BindInput = {
  userId: string;
  issuer: string;
  /** Either the client id of the owner's own sign-in (subject = the owner's user id)… */
  clientId?: string;
  /** …or the connect code the client showed, naming a pending sign-in of any subject. */
  code?: string;
  websiteId: string;
  reach: Reach;
  scopes: readonly string[];
  name?: string;
};

/** Owner-only: binds a verified client to a new connection of kind `oauth`. */
export async function bindOAuthClient(db: Db, input: BindInput, now: Date): Promise<ConnectionRow> {
  const sites = await ownedWebsites(db, input.userId);
  if (!sites.some((s) => s.id === input.websiteId)) {
    throw new Refusal('owner_only', 'Only the website owner can connect a client.');
  }
  let binding: OAuthBinding;
  let shownName: string | undefined;
  let email: string | null = null;
  if (input.code) {
    const pending = await pendingSignInByCode(db, input.code, now);
    if (!pending || pending.issuer !== input.issuer) throw notFound('OAuth sign-in');
    binding = { issuer: pending.issuer, subject: pending.subject, clientId: pending.clientId };
    shownName = pending.clientName;
    email = pending.email;
  } else {
    const clientId = (input.clientId ?? '').trim();
    if (!clientId) throw notFound('OAuth client');
    binding = { issuer: input.issuer, subject: input.userId, clientId };
    const [own] = await db
      .select({ clientName: pairings.clientName, email: pairings.oauthEmail })
      .from(pairings)
      .where(eq(pairings.deviceCodeHash, pendingKey(binding)));
    shownName = own?.clientName;
    email = own?.email ?? null;
  }
  if (await boundConnection(db, binding)) {
    throw new Refusal('conflict', 'This client is already connected. Revoke its connection first.');
  }
  return transaction(db, workspaceOf(input.websiteId), async (tx) => {
    const { connection } = await createConnection(tx as unknown as Db, {
      userId: input.userId,
      websiteId: input.websiteId,
      // Owners see a client by its registered name (R-AUTH-5), else by its id.
      name: input.name?.trim() || (shownName ?? `OAuth client ${binding.clientId}`).slice(0, 80),
      reach: input.reach,
      scopes: input.scopes,
      clientKind: 'oauth',
      oauth: { ...binding, email },
    });
    await tx
      .update(pairings)
      .set({ status: 'consumed', connectionId: connection.id, approvedBy: input.userId })
      .where(eq(pairings.deviceCodeHash, pendingKey(binding)));
    return connection;
  });
}
