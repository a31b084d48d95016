// create_site (R-SITE-1, R-SITE-2): one empty, unpublished draft website in the caller's own workspace,
// named after the business, with the connection's creator as its owner. No pages and no invented
// content. The plan's site limit is checked twice: by the gate, without a lock, before any work (the
// tools declare `createsSite`), then again inside the committing transaction with the company row
// locked (SELECT … FOR UPDATE), so concurrent calls serialise on that lock and can never exceed it.
import { newId } from '../../kernel/ids.js';
import type { Db } from '../../db/client.js';
import { brands, websiteMembers, websites } from '../../db/schema.js';
import type { Actor, WorkspaceCtx } from '../context.js';

// The plan's site limit lives with the gate (the layer below domain), which applies it to tools that
// declare `createsSite`; the committing transactions here and in src/portable/ call the same function.
import { siteRoom } from '../../gate/site-limit.js';

/** What a new site starts with: create_site gives nothing (the business name); an import its own. */
export type NewSite = {
  name?: string;
  config?: Record<string, unknown>;
  theme?: Record<string, unknown>;
  fonts?: Record<string, unknown>;
  brand?: Omit<typeof brands.$inferInsert, 'websiteId'>;
};

/**
 * The one path that creates a website (create_site, import_site, migrate_site_from_url), in the
 * caller's transaction: the plan's site limit checked again with the company row locked, then the
 * unpublished draft site (named after the business unless given a name), the acting user as its owner,
 * and its brand when given.
 */
export async function insertSite(tx: Db, actor: Actor, now: Date, site: NewSite = {}) {
  const company = await siteRoom(tx, actor.companyId, true);
  const id = newId('site');
  await tx.insert(websites).values({
    id,
    companyId: actor.companyId,
    name: site.name ?? company.name,
    ...(site.config ? { config: site.config } : {}),
    ...(site.theme ? { theme: site.theme } : {}),
    ...(site.fonts ? { fonts: site.fonts } : {}),
    searchVisible: false,
    createdAt: now,
    updatedAt: now,
  });
  await tx.insert(websiteMembers).values({ websiteId: id, userId: actor.userId, role: 'owner' });
  if (site.brand) await tx.insert(brands).values({ ...site.brand, websiteId: id });
  return { id, name: site.name ?? company.name };
}

export async function createSite(ctx: WorkspaceCtx) {
  const { id, name } = await insertSite(ctx.tx, ctx.actor, ctx.now);
  return {
    websiteId: id,
    name,
    published: false,
    pages: 0,
    editorUrl: `${ctx.services.config.baseUrl}/editor/${id}`,
  };
}
