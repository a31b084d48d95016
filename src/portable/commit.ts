// The committing half of an import (R-IMP-3): blobs first, then every row in ONE
// transaction — the company row locked and the plan's site limit checked again inside it. A failure
// leaves the bytes to the blob sweep and never deletes them: another import may already reference them.
import type { Db } from '../db/client.js';
import { newId } from '../kernel/ids.js';
import { type NewAssetRow, assetsByHash, insertAssets } from '../domain/library/assets.js';
import { writeDraftImport } from '../domain/pages/import.js';
import { assertAssetsOf } from '../domain/sections/store.js';
import type { DirectSiteCtx, SiteRef } from '../domain/context.js';
import { insertSite } from '../domain/workspace/create-site.js';
import { type FetchedAssets, writeBlobs } from './assets.js';
import { faultPoint } from '../kernel/fault.js';
import { mergeSections, type MergeReport } from './merge.js';
import { type ResolvedPage, newPageRows, resolveSections } from './rows.js';
import type { PortableSiteV1 } from './schema.js';
import { transaction, workspaces } from '../db/transactions.js';

/** Re-runs the gate for a merge target inside the given transaction (the tool passes its own rule). */
export type AuthorizeTarget = (tx: Db, websiteId: string) => Promise<SiteRef>;

export type CommitOptions = {
  mergeIntoWebsiteId?: string;
  forceKeys?: readonly string[];
  authorizeTarget: AuthorizeTarget;
  /** What a migration's Activity line tells besides the import's own result (pages fetched, failed). */
  report?: Record<string, unknown>;
};

export type ImportResult = {
  websiteId: string;
  editorUrl: string;
  mode: 'created' | 'merged';
  pages: number;
  sections: number;
  assets: Record<string, string>;
  merge?: MergeReport;
};

export async function commitImport(
  ctx: DirectSiteCtx,
  site: PortableSiteV1,
  fetched: FetchedAssets,
  opts: CommitOptions,
): Promise<ImportResult> {
  const { blobs, db, config } = ctx.services;
  // Raw library asset ids in the payload must be the merge target's own; a new site has none.
  const contents = site.pages.flatMap((p) => p.sections.map((s) => s.content));
  await assertAssetsOf(ctx.db, opts.mergeIntoWebsiteId ?? null, contents);
  // Bytes first; a failure below leaves them to the sweep, never deletes them (R-REL-1).
  const shaByKey = await writeBlobs(blobs, fetched.images);
  faultPoint('import-after-blobs');
  const idByKey = new Map([...shaByKey.keys()].map((k) => [k, newId('asset')]));
  // The caller's workspace: a new site is made in it, and a merge target must be in it (the gate).
  const result = await transaction(db, workspaces(ctx.website.companyId), async (tx) => {
    let websiteId: string;
    let merge: MergeReport | undefined;
    let resolved: ResolvedPage[];
    if (opts.mergeIntoWebsiteId) {
      const target = await opts.authorizeTarget(tx, opts.mergeIntoWebsiteId);
      websiteId = target.id;
      // Re-syncs reuse the target's library asset for identical bytes, so unchanged sections stay unchanged.
      const reuse = await assetsByHash(tx, websiteId, [...shaByKey.values()]);
      const fresh = new Set<string>();
      for (const [key, sha] of shaByKey) {
        const id = reuse.get(sha);
        if (id) idByKey.set(key, id);
        else fresh.add(key);
      }
      resolved = resolveSections(site, idByKey);
      await insertAssets(tx, websiteId, assetRows(fetched, shaByKey, idByKey, ctx.now, fresh));
      merge = await mergeSections(tx, ctx, target, resolved, opts.forceKeys ?? []);
    } else {
      resolved = resolveSections(site, idByKey);
      const logo = site.brand.logo ? (idByKey.get(site.brand.logo.slice(6)) ?? null) : null;
      // The domain's one site-creation path: the site limit again (company row locked), site, owner, brand.
      ({ id: websiteId } = await insertSite(tx, ctx.actor, ctx.now, {
        name: site.name,
        config: { ...site.config, businessName: site.businessName },
        theme: site.theme,
        fonts: site.fonts,
        brand: {
          palette: site.brand.palette,
          fonts: site.brand.fonts,
          style: site.brand.style,
          voice: site.brand.voice,
          logoAssetId: logo,
        },
      }));
      await insertAssets(tx, websiteId, assetRows(fetched, shaByKey, idByKey, ctx.now));
      await writeDraftImport(tx, websiteId, ctx.now, newPageRows(resolved, 0, ctx.now));
    }
    const r: ImportResult = {
      websiteId,
      editorUrl: `${config.baseUrl}/editor/${websiteId}`,
      mode: merge ? 'merged' : 'created',
      pages: resolved.length,
      sections: resolved.reduce((n, p) => n + p.sections.length, 0),
      assets: Object.fromEntries(idByKey),
      ...(merge ? { merge } : {}),
    };
    // The call's Activity line commits with the site (a crawl adds what it knows of its report).
    await ctx.commitLine?.(tx, { ...r, ...opts.report });
    return r;
  });
  faultPoint('after-own-commit');
  return result;
}

/** The library rows of the fetched images (only the `only` keys, when given). */
function assetRows(
  fetched: FetchedAssets,
  shaByKey: Map<string, string>,
  idByKey: Map<string, string>,
  now: Date,
  only?: Set<string>,
): NewAssetRow[] {
  return [...fetched.images]
    .filter(([key]) => !only || only.has(key))
    .map(([key, img]) => ({
      id: idByKey.get(key)!,
      kind: 'image',
      mime: img.mime,
      bytes: img.bytes.length,
      width: img.width,
      height: img.height,
      sha256: shaByKey.get(key)!,
      source: 'import',
      createdAt: now,
    }));
}
