// Members of a website and their removal (people management: human-only, the owner's console, never a
// tool). A removal deletes the membership row: every check of what the person may do reads it live
// (the gate for their connections, the draft preview, approvals, the console), so it holds at their
// next request on every process. Never the last owner, never yourself. Revoking a pending invitation
// makes its link unusable.
//
// The owner also invites an address as editor or viewer (the same createInvitation the reviewed
// invitation plan runs, R-ACC-1), changes a member between editor and viewer, and resends a pending
// invitation with a fresh link (the old link stops working). Owner access is never granted here.
import { and, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { invitations, users, websiteMembers } from '../../db/schema.js';
import { Refusal, invalidInput, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import {
  type InviteLevel,
  createInvitation,
  invitationExpiry,
  newInvitationToken,
  normaliseEmail,
  queueInvitationMail,
} from './invitations.js';

export type Member = { userId: string; name: string; email: string; role: string; since: Date };
export type PendingInvitation = { id: string; email: string; level: string; expiresAt: Date };

export async function membersOf(
  ctx: SiteCtx,
): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
  const members = await ctx.tx
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: websiteMembers.role,
      since: websiteMembers.createdAt,
    })
    .from(websiteMembers)
    .innerJoin(users, eq(users.id, websiteMembers.userId))
    .where(eq(websiteMembers.websiteId, ctx.website.id))
    .orderBy(asc(websiteMembers.createdAt), asc(users.id));
  const pending = await ctx.tx
    .select({
      id: invitations.id,
      email: invitations.email,
      level: invitations.level,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(
      and(
        eq(invitations.websiteId, ctx.website.id),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, ctx.now),
      ),
    )
    .orderBy(asc(invitations.createdAt));
  return { members, invitations: pending };
}

export async function removeMember(ctx: SiteCtx, userId: string): Promise<{ role: string }> {
  if (userId === ctx.actor.userId) {
    throw new Refusal('conflict', 'You cannot remove yourself from a website.');
  }
  // Every membership of the site, locked: two owners removing each other at once serialise here.
  const rows = await ctx.tx
    .select({ userId: websiteMembers.userId, role: websiteMembers.role })
    .from(websiteMembers)
    .where(eq(websiteMembers.websiteId, ctx.website.id))
    .for('update');
  const target = rows.find((r) => r.userId === userId);
  if (!target) throw notFound('member');
  const owners = rows.filter((r) => r.role === 'owner').length;
  if (target.role === 'owner' && owners <= 1) {
    throw new Refusal('conflict', 'A website always keeps at least one owner.');
  }
  await ctx.tx
    .delete(websiteMembers)
    .where(and(eq(websiteMembers.websiteId, ctx.website.id), eq(websiteMembers.userId, userId)));
  await recordOwnerAction(ctx, 'remove_member', `The owner removed a member (${target.role}) from the site.`);
  return { role: target.role };
}

export async function revokeInvitation(ctx: SiteCtx, invitationId: string): Promise<void> {
  const done = await ctx.tx
    .update(invitations)
    .set({ status: 'revoked' })
    .where(
      and(
        eq(invitations.id, invitationId),
        eq(invitations.websiteId, ctx.website.id),
        eq(invitations.status, 'pending'),
      ),
    )
    .returning({ level: invitations.level });
  if (done.length !== 1) throw notFound('invitation');
  await recordOwnerAction(
    ctx,
    'revoke_invitation',
    `The owner revoked a pending invitation (${done[0]!.level}); its link no longer works.`,
  );
}

/** Whether an email queued in this transaction leaves after the commit or waits (no SMTP_URL). */
export type QueuedMail = 'sending' | 'queued';

function sendAfterCommit(ctx: SiteCtx, mailId: string): QueuedMail {
  const mailer = ctx.services.mail;
  if (mailer) ctx.afterCommit?.(() => mailer.deliverNow([mailId]));
  return mailer?.enabled ? 'sending' : 'queued';
}

const EMAIL = z.email().max(254);

/** The level an owner may give in the console: editor or viewer, never owner. */
function ownerGivenLevel(level: string): InviteLevel {
  if (level === 'editor' || level === 'viewer') return level;
  throw invalidInput(
    level === 'owner'
      ? 'Owner access is never given by invitation or by a level change: choose editor or viewer.'
      : 'Choose editor or viewer.',
  );
}

export async function inviteMember(
  ctx: SiteCtx,
  input: { email: string; level: string },
): Promise<{ invitationId: string; mail: QueuedMail }> {
  const level = ownerGivenLevel(input.level);
  const email = normaliseEmail(input.email);
  if (!EMAIL.safeParse(email).success) {
    throw invalidInput('Enter one email address, like name@example.com.');
  }
  // assertInvitable (inside createInvitation) refuses a member's or a pending invitation's address.
  const inv = await createInvitation(ctx, email, level);
  await recordOwnerAction(
    ctx,
    'invite_member',
    `The owner invited an address as ${level}; the invitation email is queued.`,
  );
  return { invitationId: inv.invitationId, mail: sendAfterCommit(ctx, inv.mailId) };
}

export async function changeMemberLevel(
  ctx: SiteCtx,
  input: { userId: string; level: string; shown: string },
): Promise<{ level: InviteLevel }> {
  const level = ownerGivenLevel(input.level);
  if (input.userId === ctx.actor.userId) {
    throw new Refusal('conflict', 'You cannot change your own level.');
  }
  const [row] = await ctx.tx
    .select({ role: websiteMembers.role })
    .from(websiteMembers)
    .where(and(eq(websiteMembers.websiteId, ctx.website.id), eq(websiteMembers.userId, input.userId)))
    .for('update');
  if (!row) throw notFound('member');
  if (row.role === 'owner') {
    throw new Refusal('conflict', "An owner's level is not changed here.");
  }
  if (row.role !== input.shown) {
    throw new Refusal(
      'conflict',
      `This member's level changed after your page was shown: they are now ${row.role}.`,
      'Open the members again and decide on what they show now.',
    );
  }
  if (row.role === level) throw new Refusal('conflict', `This member is already ${level}.`);
  await ctx.tx
    .update(websiteMembers)
    .set({ role: level })
    .where(and(eq(websiteMembers.websiteId, ctx.website.id), eq(websiteMembers.userId, input.userId)));
  await recordOwnerAction(
    ctx,
    'change_member_level',
    `The owner changed a member from ${row.role} to ${level}.`,
  );
  return { level };
}

/**
 * A pending invitation's email again, with a fresh link valid for the full period: the database keeps
 * only a token's hash, so the old link cannot be mailed again and stops working.
 */
export async function resendInvitation(ctx: SiteCtx, invitationId: string): Promise<{ mail: QueuedMail }> {
  const { token, tokenHash } = newInvitationToken();
  const [row] = await ctx.tx
    .update(invitations)
    .set({ tokenHash, expiresAt: invitationExpiry(ctx.now) })
    .where(
      and(
        eq(invitations.id, invitationId),
        eq(invitations.websiteId, ctx.website.id),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, ctx.now),
      ),
    )
    .returning({ email: invitations.email, level: invitations.level });
  if (!row) throw notFound('invitation');
  const mailId = await queueInvitationMail(ctx, {
    email: row.email,
    level: ownerGivenLevel(row.level),
    token,
  });
  await recordOwnerAction(
    ctx,
    'resend_invitation',
    `The owner resent a pending invitation (${row.level}) with a new link; the old link no longer works.`,
  );
  return { mail: sendAfterCommit(ctx, mailId) };
}
