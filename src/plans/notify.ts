// A new plan tells the owners of its site by email (through the outbox, in the plan's transaction):
// what is asked, by which connection, until when, and the approval link; the subject line says the
// same three, so plans in an inbox tell apart. Only when a mail server is configured: without one
// the message could never leave, and the owner's home shows the waiting plan anyway.
import { eq } from 'drizzle-orm';
import { connections, websites } from '../db/schema.js';
import { ownerEmails } from '../gate/owners.js';
import type { SiteCtx } from '../domain/context.js';
import { timeZoneOf } from '../domain/crm/booking-request.js';
import { queueMail } from '../domain/mail/outbox.js';
import type { PlanKind } from './kinds/types.js';

/** What a plan asks, in a few words, for the subject line. */
const ASKED: Record<PlanKind, (site: string) => string> = {
  publish: (site) => `Publish ${site}`,
  unpublish: (site) => `Take ${site} offline`,
  publish_product: (site) => `Publish a product on ${site}`,
  search_visibility: (site) => `Change the search visibility of ${site}`,
  grant_access: (site) => `Invite someone to ${site}`,
  send_document: (site) => `Send an invoice or quote of ${site}`,
  create_company: () => 'Create a company',
};

export async function notifyOwnersOfPlan(
  ctx: SiteCtx,
  plan: { kind: PlanKind; summary: string; expiresAt: Date; approveUrl: string },
): Promise<void> {
  const mail = ctx.services.mail;
  if (!mail?.enabled) return;
  const [site] = await ctx.tx
    .select({ name: websites.name, config: websites.config })
    .from(websites)
    .where(eq(websites.id, ctx.website.id));
  const [connection] = ctx.actor.connectionId
    ? await ctx.tx
        .select({ name: connections.name })
        .from(connections)
        .where(eq(connections.id, ctx.actor.connectionId))
    : [];
  const owners = await ownerEmails(ctx.tx, ctx.website.id);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: timeZoneOf(site?.config ?? {}), ...options }).format(
      plan.expiresAt,
    );
  const deadline = format({ dateStyle: 'medium', timeStyle: 'short' });
  const siteName = site?.name ?? 'your website';
  const by = connection ? ` through “${connection.name}”` : '';
  // One line: a name is the connection's or the site's own words.
  const subject =
    `Approve? ${ASKED[plan.kind](siteName)}${by}, until ${format({ timeStyle: 'short' })}`.replace(
      /\s+/g,
      ' ',
    );
  const text = [
    `Your assistant asks for your approval${by}:`,
    '',
    plan.summary,
    '',
    `Review it and approve or decline before ${deadline} (plans live 5 minutes; after that nothing happens):`,
    plan.approveUrl,
    '',
    '—',
    `Sent by Sitegate for ${siteName}. Nothing happens unless you approve it.`,
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
          subject,
          text,
        },
        ctx.now,
      ),
    );
  }
  ctx.afterCommit?.(() => mail.deliverNow(ids));
}
