// create_site (SPEC §4.5, rule 5): one empty, unpublished draft website in the caller's own workspace,
// named after the business, with the connection's creator as its owner. No pages and no invented
// content. The plan's site limit is checked twice: first without a lock (the cheap early refusal
// at gate time), then again inside the committing transaction with the company row locked
// (SELECT … FOR UPDATE), so concurrent calls serialise on that lock and can never exceed the limit.
import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import { companies, websiteMembers, websites } from '../../db/schema.js';
import type { WorkspaceCtx } from '../context.js';
import { Refusal } from '../../kernel/errors.js';

async function room(tx: Db, companyId: string, lock: boolean) {
  const q = tx
    .select({ name: companies.name, plan: companies.plan, siteLimit: companies.siteLimit })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [company] = lock ? await q.for('update') : await q;
  if (!company) throw new Error('company of the caller is missing');
  const [used] = await tx.select({ n: count() }).from(websites).where(eq(websites.companyId, companyId));
  const n = Number(used?.n ?? 0);
  if (n >= company.siteLimit) {
    throw new Refusal(
      'site_limit_reached',
      `The ${company.plan} plan allows ${company.siteLimit} site(s) and this workspace has ${n}. No site was created.`,
      'The owner can upgrade the plan in the app; the agent cannot.',
    );
  }
  return company;
}

/** The early check, without a lock. */
export async function assertSiteRoom(tx: Db, companyId: string): Promise<void> {
  await room(tx, companyId, false);
}

export async function createSite(ctx: WorkspaceCtx) {
  await assertSiteRoom(ctx.tx, ctx.actor.companyId);
  const company = await room(ctx.tx, ctx.actor.companyId, true);
  const id = newId('site');
  await ctx.tx.insert(websites).values({
    id,
    companyId: ctx.actor.companyId,
    name: company.name,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.tx.insert(websiteMembers).values({ websiteId: id, userId: ctx.actor.userId, role: 'owner' });
  return {
    websiteId: id,
    name: company.name,
    published: false,
    pages: 0,
    editorUrl: `${ctx.services.config.baseUrl}/editor/${id}`,
  };
}
