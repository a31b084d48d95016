// Plan kind `grant_access` (R-PLAN-7, R-ACC-1): an invitation for one address at level editor or
// viewer, fixed to the plan's website. Owner-only at prepare and at confirm; the pinned revision is the
// address, the level and the owner's status, so a demoted owner's plan no longer matches.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { websiteMembers } from '../../db/schema.js';
import {
  INVITATION_DAYS,
  assertInvitable,
  checkLevel,
  createInvitation,
  normaliseEmail,
} from '../../domain/access/invitations.js';
import type { SiteCtx } from '../../domain/context.js';
import { sha256OfCanonicalJson } from '../../kernel/fingerprint.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';
import { websiteRowOf } from '../../domain/sites/row.js';

const AccessSubject = z.object({
  siteName: z.string(),
  email: z.string(),
  level: z.enum(['editor', 'viewer']),
});
type AccessSubject = z.infer<typeof AccessSubject>;

const LEVEL_MEANS = {
  editor: 'See the site and its draft, and edit draft pages, sections and posts.',
  viewer: 'See the site and its draft; change nothing.',
} as const;

async function ownerStatus(ctx: SiteCtx): Promise<string> {
  const [m] = await ctx.tx
    .select({ role: websiteMembers.role })
    .from(websiteMembers)
    .where(and(eq(websiteMembers.websiteId, ctx.website.id), eq(websiteMembers.userId, ctx.actor.userId)))
    .for('update');
  return m?.role ?? 'none';
}

async function revision(ctx: SiteCtx, s: Pick<AccessSubject, 'email' | 'level'>): Promise<string> {
  return `access:${sha256OfCanonicalJson({ email: s.email, level: s.level, owner: await ownerStatus(ctx) })}`;
}

export const grantAccessKind = defineKind<AccessSubject>({
  kind: 'grant_access',
  rule: {
    name: 'confirm_pending_action (grant access)',
    scope: 'access:write',
    area: 'access',
    role: 'owner',
  },
  subject: AccessSubject,
  revision,
  review: (s) => ({
    title: `Invite ${s.email} to ${s.siteName}`,
    facts: [
      { label: 'Invited address', value: s.email },
      { label: 'Level', value: s.level === 'editor' ? 'Editor' : 'Viewer' },
      { label: 'Website', value: `${s.siteName} only (no other website of yours)` },
      { label: 'What this level may do', value: LEVEL_MEANS[s.level] },
      {
        label: 'What happens',
        value: `An invitation email goes to ${s.email} with a link valid for ${INVITATION_DAYS} days. Access starts only when they accept it.`,
      },
    ],
    notes: [
      'They cannot publish, invite others, connect domains, approve plans or delete anything: those stay with you.',
    ],
  }),
  async execute(ctx, s) {
    const inv = await createInvitation(ctx, s.email, s.level);
    const mail = ctx.services.mail;
    if (mail) ctx.afterCommit?.(() => mail.deliverNow([inv.mailId]));
    // The link is in the email only. The email leaves after the commit, so it is `queued` until the mail
    // server accepts it (R-REL-2); the owner's home page shows its real state.
    return {
      status: 'queued' as const,
      level: s.level,
      expiresAt: inv.expiresAt.toISOString(),
      mail: mail?.enabled
        ? 'The invitation email is queued and leaves now.'
        : 'The invitation email is queued, but this server has no mail server configured (SMTP_URL): it has not left.',
    };
  },
});

export async function prepareGrantAccess(
  ctx: SiteCtx,
  input: { email: string; level: string },
): Promise<PlanTicket> {
  const level = checkLevel(input.level);
  const email = normaliseEmail(input.email);
  await assertInvitable(ctx, email);
  const { name } = await websiteRowOf(ctx);
  return createPlan(ctx, 'grant_access', {
    subject: { siteName: name, email, level },
    pinnedRevision: await revision(ctx, { email, level }),
    summary: `Invite ${email} to ${name} as ${level}.`,
  });
}
