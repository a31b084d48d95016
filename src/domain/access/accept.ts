// Accepting an invitation (the link mailed by prepare_grant_access → confirm_pending_action): the
// signed-in person whose address it was sent to becomes a member of that one website at the
// invited level. Single use, expires, and never widens: an existing higher role is kept.
import { and, eq, sql } from 'drizzle-orm';
import { sha256Hex } from '../../kernel/tokens.js';
import type { Db } from '../../db/client.js';
import { companyMembers, invitations, websiteMembers, websites } from '../../db/schema.js';
import { isRole, roleRank } from '../../kernel/scopes.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { normaliseEmail } from './invitations.js';
import { transaction, workspaces } from '../../db/transactions.js';

export type InvitationView = { websiteName: string; level: string; forThisUser: boolean };

const HEX = /^[A-Za-z0-9_-]{20,100}$/;

async function pendingByToken(db: Db, token: string, now: Date, lock: boolean) {
  if (!HEX.test(token)) throw notFound('invitation');
  const q = db
    .select({ inv: invitations, websiteName: websites.name, companyId: websites.companyId })
    .from(invitations)
    .innerJoin(websites, eq(websites.id, invitations.websiteId))
    .where(eq(invitations.tokenHash, sha256Hex(token)));
  const [row] = lock ? await q.for('update', { of: invitations }) : await q;
  if (row?.inv.status !== 'pending') throw notFound('invitation');
  if (row.inv.expiresAt <= now) {
    throw new Refusal('plan_expired', 'This invitation has expired. Ask the site owner for a new one.');
  }
  return row;
}

export async function viewInvitation(
  db: Db,
  token: string,
  user: { email: string },
  now: Date,
): Promise<InvitationView> {
  const row = await pendingByToken(db, token, now, false);
  return {
    websiteName: row.websiteName,
    level: row.inv.level,
    forThisUser: normaliseEmail(user.email) === normaliseEmail(row.inv.email),
  };
}

export async function acceptInvitation(
  db: Db,
  token: string,
  user: { id: string; email: string },
  now: Date,
): Promise<{ websiteId: string; role: string }> {
  // The invitation's workspace, read first: its write lock comes before the invitation's row lock.
  const { companyId } = await pendingByToken(db, token, now, false);
  return transaction(db, workspaces(companyId), async (tx) => {
    const row = await pendingByToken(tx, token, now, true);
    if (normaliseEmail(user.email) !== normaliseEmail(row.inv.email)) {
      throw new Refusal(
        'role_insufficient',
        'This invitation was sent to another address. Sign in with the address it was sent to.',
      );
    }
    const [current] = await tx
      .select({ role: websiteMembers.role })
      .from(websiteMembers)
      .where(and(eq(websiteMembers.websiteId, row.inv.websiteId), eq(websiteMembers.userId, user.id)));
    const invited = row.inv.level === 'editor' ? 'editor' : 'viewer';
    const keep = current && isRole(current.role) && roleRank(current.role) >= roleRank(invited);
    if (!current) {
      await tx
        .insert(websiteMembers)
        .values({ websiteId: row.inv.websiteId, userId: user.id, role: invited });
    } else if (!keep) {
      await tx
        .update(websiteMembers)
        .set({ role: invited })
        .where(and(eq(websiteMembers.websiteId, row.inv.websiteId), eq(websiteMembers.userId, user.id)));
    }
    await tx
      .insert(companyMembers)
      .values({ companyId: row.companyId, userId: user.id, role: 'member' })
      .onConflictDoNothing();
    await tx
      .update(invitations)
      .set({ status: 'accepted' })
      .where(and(eq(invitations.id, row.inv.id), eq(invitations.status, sql`'pending'`)));
    return { websiteId: row.inv.websiteId, role: keep ? current!.role : invited };
  });
}
