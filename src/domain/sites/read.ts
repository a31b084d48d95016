// Reading websites: the list a connection can reach, and one site's overview.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { companies, domains, pages, sections, websiteMembers, websites } from '../../db/schema.js';
import type { DirectSiteCtx } from '../context.js';
import { draftChanges } from '../pages/read.js';
import { websiteRowOf } from './row.js';

export type SiteSummary = {
  websiteId: string;
  name: string;
  role: string;
  published: boolean;
  editorUrl: string;
};

/** The sites a connection reaches: its own site, or every site of the workspace where the creator has a role. */
export async function listSites(
  ctx: DirectSiteCtx,
  reach: { reach: 'website' | 'workspace'; websiteId: string },
) {
  const rows = await ctx.db
    .select({
      id: websites.id,
      name: websites.name,
      role: websiteMembers.role,
      publishedRev: websites.publishedRev,
    })
    .from(websites)
    .innerJoin(
      websiteMembers,
      and(eq(websiteMembers.websiteId, websites.id), eq(websiteMembers.userId, ctx.actor.userId)),
    )
    .where(
      and(
        reach.reach === 'website'
          ? eq(websites.id, reach.websiteId)
          : eq(websites.companyId, ctx.actor.companyId),
        isNull(websites.deletedAt),
      ),
    )
    .orderBy(asc(websites.createdAt));
  return rows.map(
    (r): SiteSummary => ({
      websiteId: r.id,
      name: r.name,
      role: r.role,
      published: r.publishedRev !== null,
      editorUrl: `${ctx.services.config.baseUrl}/editor/${r.id}`,
    }),
  );
}

export async function siteOverview(ctx: DirectSiteCtx) {
  const w = await websiteRowOf(ctx);
  const [company] = await ctx.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, w.companyId));
  // Counted by the database: a 2,000-page site is three numbers, not its page list.
  const [counts] = await ctx.db
    .select({
      pages: sql<number>`count(*) filter (where ${pages.kind} = 'page')`.mapWith(Number),
      posts: sql<number>`count(*) filter (where ${pages.kind} = 'post')`.mapWith(Number),
      sections: sql<number>`(select count(*) from ${sections} where ${sections.websiteId} = ${w.id})`.mapWith(
        Number,
      ),
    })
    .from(pages)
    .where(eq(pages.websiteId, w.id));
  const domainRows = await ctx.db
    .select({ hostname: domains.hostname, status: domains.status, primary: domains.isPrimary })
    .from(domains)
    .where(eq(domains.websiteId, w.id));
  const changes = await draftChanges(ctx.db, w);
  const base = ctx.services.config.baseUrl;
  return {
    websiteId: w.id,
    name: w.name,
    businessName: company?.name ?? '',
    published: w.publishedRev !== null,
    publishedAt: w.publishedRev === null ? null : (w.publishedAt?.toISOString() ?? null),
    draftRevision: w.draftRev,
    unpublishedChanges: changes.length,
    pages: counts?.pages ?? 0,
    blogPosts: counts?.posts ?? 0,
    sections: counts?.sections ?? 0,
    searchVisible: w.searchVisible,
    domains: domainRows,
    editorUrl: `${base}/editor/${w.id}`,
    publicUrl: w.publishedRev !== null ? `${base}/sites/${w.id}/` : null,
  };
}
