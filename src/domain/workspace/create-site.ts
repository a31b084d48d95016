// create_site (SPEC §4.5, rule 5): one empty, unpublished draft website in the caller's own workspace,
// named after the business, with the connection's creator as its owner. No pages and no invented
// content. The plan's site limit is checked twice: by the gate, without a lock, before any work (the
// tools declare `createsSite`), then again inside the committing transaction with the company row
// locked (SELECT … FOR UPDATE), so concurrent calls serialise on that lock and can never exceed it.
import { newId } from '../../kernel/ids.js';
import { websiteMembers, websites } from '../../db/schema.js';
import type { WorkspaceCtx } from '../context.js';

// The plan's site limit lives with the gate (the layer below domain), which applies it to tools that
// declare `createsSite`; the committing transactions here and in src/portable/ call the same function.
export { assertSiteRoom, siteRoom } from '../../gate/site-limit.js';
import { siteRoom } from '../../gate/site-limit.js';

export async function createSite(ctx: WorkspaceCtx) {
  const company = await siteRoom(ctx.tx, ctx.actor.companyId, true);
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
