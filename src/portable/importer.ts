// import_site (R-IMP-1): the gate has refused a full plan already (createsSite); validate the
// PortableSiteV1 payload (caps, shape, every section), refuse early a merge target the connection
// cannot edit, fetch and re-validate the assets outside any transaction, then commit everything in one
// transaction (commit.ts), which checks the site limit again.
import type { DirectSiteCtx } from '../domain/context.js';
import { createGuard, type Guard } from '../net/ssrf.js';
import { fetchAssets } from './assets.js';
import { type AuthorizeTarget, commitImport, type ImportResult } from './commit.js';
import { parsePortable, validateSections } from './prepare.js';
import { plural } from '../kernel/plural.js';

export type ImportInput = { site: unknown; mergeIntoWebsiteId?: string; forceKeys?: string[] };

export async function importSite(
  ctx: DirectSiteCtx,
  input: ImportInput,
  deps: { authorizeTarget: AuthorizeTarget; guard?: Guard },
): Promise<ImportResult> {
  const site = parsePortable(input.site);
  validateSections(site);
  // The site limit was checked by the gate (createsSite) and is checked again in the commit.
  if (input.mergeIntoWebsiteId) await deps.authorizeTarget(ctx.db, input.mergeIntoWebsiteId);
  const guard = deps.guard ?? createGuard({ allowHosts: ctx.services.config.crawlAllowHosts });
  try {
    await ctx.progress(0, site.assets.length || undefined, `Fetching ${plural(site.assets.length, 'asset')}`);
    const fetched = await fetchAssets(guard, site.assets, { strict: true });
    return await commitImport(ctx, site, fetched, {
      mergeIntoWebsiteId: input.mergeIntoWebsiteId,
      forceKeys: input.forceKeys,
      authorizeTarget: deps.authorizeTarget,
    });
  } finally {
    if (!deps.guard) await guard.close();
  }
}
