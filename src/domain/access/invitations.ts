// Access to a website (R-ACC-1): members and pending
// invitations, and creating an invitation at level editor or viewer — never owner — fixed to one
// website. The invitation link goes only to the invited address by mail; no caller ever sees it.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { sha256Hex } from '../../kernel/tokens.js';
import { newId } from '../../kernel/ids.js';
import { invitations, users, websiteMembers } from '../../db/schema.js';
import type { DirectSiteCtx, SiteCtx } from '../context.js';
import { Refusal, invalidInput } from '../../kernel/errors.js';
import { queueMail } from '../mail/outbox.js';
import { websiteRowOf } from '../sites/row.js';

const INVITE_LEVELS = ['editor', 'viewer'] as const;
export type InviteLevel = (typeof INVITE_LEVELS)[number];
export const INVITATION_DAYS = 7;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkLevel(level: string): InviteLevel {
  if (level === 'editor' || level === 'viewer') return level;
  throw invalidInput(
    "An invitation level must be 'editor' or 'viewer'; 'owner' cannot be granted through a connection.",
  );
}

export async function listAccess(ctx: DirectSiteCtx) {
  const members = await ctx.db
    .select({ name: users.name, email: users.email, role: websiteMembers.role })
    .from(websiteMembers)
    .innerJoin(users, eq(users.id, websiteMembers.userId))
    .where(eq(websiteMembers.websiteId, ctx.website.id))
    .orderBy(asc(websiteMembers.createdAt));
  const pending = await ctx.db
    .select({ email: invitations.email, level: invitations.level, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(
      and(
        eq(invitations.websiteId, ctx.website.id),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, ctx.now),
      ),
    )
    .orderBy(asc(invitations.createdAt));
  return {
    members,
    invitations: pending.map((i) => ({
      email: i.email,
      level: i.level,
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/** Refuses an address that already has access or a pending invitation to this website. */
export async function assertInvitable(ctx: SiteCtx, email: string): Promise<void> {
  const [member] = await ctx.tx
    .select({ role: websiteMembers.role })
    .from(websiteMembers)
    .innerJoin(users, eq(users.id, websiteMembers.userId))
    .where(and(eq(websiteMembers.websiteId, ctx.website.id), eq(users.email, email)));
  if (member) throw new Refusal('conflict', 'That address already has access to this website.');
  const [open] = await ctx.tx
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.websiteId, ctx.website.id),
        eq(invitations.email, email),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, ctx.now),
      ),
    );
  if (open) throw new Refusal('conflict', 'That address already has a pending invitation to this website.');
}

/** Creates the invitation and queues its email (same transaction). Returns no link: it is mailed only. */
export async function createInvitation(ctx: SiteCtx, email: string, level: InviteLevel) {
  await assertInvitable(ctx, email);
  const { token, tokenHash } = newInvitationToken();
  const id = newId('inv');
  const expiresAt = invitationExpiry(ctx.now);
  await ctx.tx.insert(invitations).values({
    id,
    websiteId: ctx.website.id,
    email,
    level,
    tokenHash,
    invitedBy: ctx.actor.userId,
    createdAt: ctx.now,
    expiresAt,
  });
  const mailId = await queueInvitationMail(ctx, { email, level, token });
  return { invitationId: id, expiresAt, mailId };
}

/** A fresh invitation secret: the token goes into the link only, the database keeps its hash. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: sha256Hex(token) };
}

export const invitationExpiry = (now: Date) => new Date(now.getTime() + INVITATION_DAYS * 86_400_000);

/** The invitation email with its link, queued in the outbox in the caller's transaction. */
export async function queueInvitationMail(
  ctx: SiteCtx,
  inv: { email: string; level: InviteLevel; token: string },
): Promise<string> {
  const link = `${ctx.services.config.baseUrl}/invitations/${inv.token}`;
  const { name } = await websiteRowOf(ctx);
  return queueMail(
    ctx.tx,
    {
      websiteId: ctx.website.id,
      kind: 'invitation',
      to: inv.email,
      subject: `You are invited to ${name}`,
      text: [
        `You have been invited to work on ${name} as ${inv.level === 'editor' ? 'an editor' : 'a viewer'}.`,
        '',
        `Accept the invitation: ${link}`,
        '',
        `The link works for ${INVITATION_DAYS} days. If you did not expect this, ignore this message.`,
      ].join('\n'),
    },
    ctx.now,
  );
}
