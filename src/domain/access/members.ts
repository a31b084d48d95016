// Members of a website and their removal (people management: human-only, the owner's console, never a
// tool). A removal deletes the membership row: every check of what the person may do reads it live
// (the gate for their connections, the draft preview, approvals, the console), so it holds at their
// next request on every process. Never the last owner, never yourself. Revoking a pending invitation
// makes its link unusable.
import { and, asc, eq, gt } from 'drizzle-orm';
import { invitations, users, websiteMembers } from '../../db/schema.js';
import { Refusal, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';

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
