// A new plan tells the owners of its site by email (through the outbox, in the plan's transaction):
// what is asked, until when, and the approval link. Only when a mail server is configured: without one
// the message could never leave, and the owner's home shows the waiting plan anyway.
import { eq } from 'drizzle-orm';
import { websites } from '../db/schema.js';
import { ownerEmails } from '../gate/owners.js';
import type { SiteCtx } from '../domain/context.js';
import { timeZoneOf } from '../domain/crm/booking-request.js';
import { queueMail } from '../domain/mail/outbox.js';

export async function notifyOwnersOfPlan(
  ctx: SiteCtx,
  plan: { summary: string; expiresAt: Date; approveUrl: string },
): Promise<void> {
  const mail = ctx.services.mail;
  if (!mail?.enabled) return;
  const [site] = await ctx.tx
    .select({ name: websites.name, config: websites.config })
    .from(websites)
    .where(eq(websites.id, ctx.website.id));
  const owners = await ownerEmails(ctx.tx, ctx.website.id);
  const deadline = new Intl.DateTimeFormat('en-GB', {
    timeZone: timeZoneOf(site?.config ?? {}),
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(plan.expiresAt);
  const text = [
    'Your assistant asks for your approval:',
    '',
    plan.summary,
    '',
    `Review it and approve or decline before ${deadline} (plans live 5 minutes; after that nothing happens):`,
    plan.approveUrl,
    '',
    '—',
    `Sent by Sitegate for ${site?.name ?? 'your website'}. Nothing happens unless you approve it.`,
  ].join('\n');
  const ids: string[] = [];
  for (const o of owners) {
    ids.push(
      await queueMail(
        ctx.tx,
        {
          websiteId: ctx.website.id,
          kind: 'plan',
          to: o.email,
          subject: `Approval needed on ${site?.name ?? 'your website'}`,
          text,
        },
        ctx.now,
      ),
    );
  }
  ctx.afterCommit?.(() => mail.deliverNow(ids));
}
