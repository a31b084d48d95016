// Device-code pairing (R-PAIR-1, R-PAIR-2, after RFC 8628): the CLI asks for scopes, the owner
// approves at /dashboard/connect (may untick any scope, picks the reach), and the first poll after
// approval mints an ordinary connection whose token is returned exactly once. Device codes are
// stored only as SHA-256; user codes are short and unambiguous (no 0/O/1/I).
import { randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { newId } from '../kernel/ids.js';
import { pairings } from '../db/schema.js';
import { Refusal, invalidInput, notFound } from '../kernel/errors.js';
import { type Scope, isScope, normaliseScopes } from '../kernel/scopes.js';
import type { Reach } from '../kernel/caller.js';
import { createConnection } from './connections.js';
import { ownedWebsites } from './owner.js';
import { sha256Hex } from '../kernel/tokens.js';
import { transaction, workspaceOf } from '../db/transactions.js';

const PAIRING_TTL_SECONDS = 600;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
const SLOW_DOWN_STEP = 5;
const USER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type PairingRow = typeof pairings.$inferSelect;

/** 8 characters from a 32-letter alphabet without 0/O/1/I, shown as XXXX-XXXX (40 bits). */
export function newUserCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** Accepts what a person types: any case, spaces or dashes; returns the canonical XXXX-XXXX or null. */
export function normaliseUserCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, '');
  if (s.length !== 8 || [...s].some((ch) => !USER_CODE_ALPHABET.includes(ch))) return null;
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

export type StartedPairing = {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
};

export async function startPairing(
  db: Db,
  input: { scopes: unknown; clientName: unknown },
  opts: { now: Date; baseUrl: string; intervalSeconds: number },
): Promise<StartedPairing> {
  const requested = Array.isArray(input.scopes) ? input.scopes : [];
  if (!requested.every((s): s is Scope => typeof s === 'string' && isScope(s))) {
    throw invalidInput('scopes must be a list of scopes from the scope table.');
  }
  const clientName = typeof input.clientName === 'string' ? input.clientName.trim() : '';
  if (!clientName || clientName.length > 80) throw invalidInput('clientName must be 1 to 80 characters.');
  const deviceCode = randomBytes(32).toString('base64url');
  const userCode = newUserCode();
  await db.insert(pairings).values({
    id: newId('pair'),
    kind: 'cli',
    deviceCodeHash: sha256Hex(deviceCode),
    userCode,
    clientName,
    scopesRequested: normaliseScopes(requested),
    intervalSeconds: opts.intervalSeconds,
    expiresAt: new Date(opts.now.getTime() + PAIRING_TTL_SECONDS * 1000),
  });
  const verificationUri = `${opts.baseUrl}/dashboard/connect`;
  return {
    deviceCode,
    userCode,
    verificationUri,
    verificationUriComplete: `${verificationUri}?code=${encodeURIComponent(userCode)}`,
    expiresIn: PAIRING_TTL_SECONDS,
    interval: opts.intervalSeconds,
  };
}

/** The live, pending CLI pairing with this user code, or null. */
export async function pendingPairingByUserCode(db: Db, userCode: string, now: Date) {
  const code = normaliseUserCode(userCode);
  if (!code) return null;
  const [row] = await db
    .select()
    .from(pairings)
    .where(
      and(
        eq(pairings.userCode, code),
        eq(pairings.kind, 'cli'),
        eq(pairings.status, 'pending'),
        gt(pairings.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

export type Decision = {
  userId: string;
  userCode: string;
  websiteId: string;
  reach: Reach;
  /** The scopes left ticked; intersected with the request, so the grant is never wider. */
  scopes: readonly string[];
};

/** The owner approves: records the grant; the token is minted at the first poll, not here. */
export async function approvePairing(db: Db, d: Decision, now: Date): Promise<PairingRow> {
  const row = await pendingPairingByUserCode(db, d.userCode, now);
  if (!row) throw notFound('pairing');
  await assertOwner(db, d.userId, d.websiteId);
  const granted = normaliseScopes(d.scopes.filter((s) => row.scopesRequested.includes(s)));
  const [updated] = await db
    .update(pairings)
    .set({
      status: 'approved',
      scopesGranted: granted,
      reach: d.reach === 'workspace' ? 'workspace' : 'website',
      websiteId: d.websiteId,
      approvedBy: d.userId,
    })
    .where(and(eq(pairings.id, row.id), eq(pairings.status, 'pending')))
    .returning();
  if (!updated) throw notFound('pairing');
  return updated;
}

export async function declinePairing(
  db: Db,
  d: { userId: string; userCode: string; websiteId: string },
  now: Date,
) {
  const row = await pendingPairingByUserCode(db, d.userCode, now);
  if (!row) throw notFound('pairing');
  await assertOwner(db, d.userId, d.websiteId);
  await db
    .update(pairings)
    .set({ status: 'declined', approvedBy: d.userId })
    .where(and(eq(pairings.id, row.id), eq(pairings.status, 'pending')));
}

/** Approval is owner-only (R-PAIR-1): the same rule createConnection applies, checked up front. */
async function assertOwner(db: Db, userId: string, websiteId: string) {
  const sites = await ownedWebsites(db, userId);
  if (!sites.some((s) => s.id === websiteId)) {
    throw new Refusal('owner_only', 'Only the website owner can approve a pairing.');
  }
}

export type PollResult =
  | { status: 202; body: { status: 'pending' } }
  | { status: 200; body: { status: 'approved'; token: string; scopes: Scope[]; reach: Reach } }
  | { status: 403; body: { error: 'access_denied' } }
  | { status: 404; body: { error: 'invalid_grant' } }
  | { status: 410; body: { error: 'expired_token' | 'already_used' } }
  | { status: 429; body: { error: 'slow_down'; interval: number } };

export async function pollPairing(db: Db, deviceCode: unknown, now: Date): Promise<PollResult> {
  if (typeof deviceCode !== 'string' || !deviceCode) return { status: 404, body: { error: 'invalid_grant' } };
  const [row] = await db
    .select()
    .from(pairings)
    .where(and(eq(pairings.deviceCodeHash, sha256Hex(deviceCode)), eq(pairings.kind, 'cli')));
  if (!row) return { status: 404, body: { error: 'invalid_grant' } };
  if (row.status === 'consumed') return { status: 410, body: { error: 'already_used' } };
  if (row.expiresAt <= now) return { status: 410, body: { error: 'expired_token' } };
  if (row.status === 'declined') return { status: 403, body: { error: 'access_denied' } };
  // RFC 8628 §3.5 slow_down: polled again before the interval passed.
  if (row.lastPolledAt && now.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000) {
    const interval = row.intervalSeconds + SLOW_DOWN_STEP;
    await db
      .update(pairings)
      .set({ intervalSeconds: interval, lastPolledAt: now })
      .where(eq(pairings.id, row.id));
    return { status: 429, body: { error: 'slow_down', interval } };
  }
  if (row.status !== 'approved') {
    await db.update(pairings).set({ lastPolledAt: now }).where(eq(pairings.id, row.id));
    return { status: 202, body: { status: 'pending' } };
  }
  return transaction(db, workspaceOf(row.websiteId!), async (tx) => {
    // Exactly once: only the poll that flips approved -> consumed mints the token.
    const [claimed] = await tx
      .update(pairings)
      .set({ status: 'consumed', lastPolledAt: now })
      .where(and(eq(pairings.id, row.id), eq(pairings.status, 'approved')))
      .returning();
    if (!claimed) return { status: 410, body: { error: 'already_used' } } as const;
    const { connection, token } = await createConnection(tx as unknown as Db, {
      userId: claimed.approvedBy!,
      websiteId: claimed.websiteId!,
      name: claimed.clientName,
      reach: claimed.reach === 'workspace' ? 'workspace' : 'website',
      scopes: claimed.scopesGranted ?? [],
      clientKind: 'cli',
    });
    await tx.update(pairings).set({ connectionId: connection.id }).where(eq(pairings.id, claimed.id));
    return {
      status: 200,
      body: {
        status: 'approved',
        token: token!,
        scopes: normaliseScopes(connection.scopes),
        reach: connection.reach === 'workspace' ? 'workspace' : 'website',
      },
    } as const;
  });
}

/** Background clean-up: pairings (and pending OAuth sign-ins) a day past their expiry. */
export async function purgePairings(db: Db, now: Date): Promise<void> {
  await db.delete(pairings).where(lt(pairings.expiresAt, new Date(now.getTime() - 86_400_000)));
}
