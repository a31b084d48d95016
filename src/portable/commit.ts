// The committing half of an import (SPEC §4.5 import_site): blobs first (tracked), then every row in
// ONE transaction — the company row locked and the plan's site limit checked again inside it — and on
// any failure the blobs this import wrote are removed, so nothing is left behind.
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { newId } from '../db/ids.js';
import { assets, brands, companies, pages, sections, websiteMembers, websites } from '../db/schema.js';
import type { SiteCtx, WebsiteRow } from '../domain/context.js';
import { Refusal } from '../domain/errors.js';
import { parseSectionContent } from '../domain/sections/types.js';
import { type BlobLedger, type FetchedAssets, rollbackBlobs, writeBlobs } from './assets.js';
import { mergeSections, type MergeReport } from './merge.js';
import { fingerprint, resolveAssetRefs } from './refs.js';
import { keyByUrl } from './prepare.js';
import type { PortableSiteV1 } from './schema.js';

/** Re-runs the gate for a merge target inside the given transaction (the tool passes its own rule). */
export type AuthorizeTarget = (tx: Db, websiteId: string) => Promise<WebsiteRow>;

export type CommitOptions = {
  mergeIntoWebsiteId?: string;
  forceKeys?: readonly string[];
  authorizeTarget: AuthorizeTarget;
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

/** Refuses when the workspace already has as many sites as its plan allows. */
export async function checkSiteLimit(tx: Db, companyId: string, lock: boolean): Promise<void> {
  const q = tx.select({ siteLimit: companies.siteLimit }).from(companies).where(eq(companies.id, companyId));
  const [company] = lock ? await q.for('update') : await q;
  const [used] = await tx.select({ n: count() }).from(websites).where(eq(websites.companyId, companyId));
  if (!company || Number(used?.n ?? 0) >= company.siteLimit) {
    throw new Refusal(
      'site_limit_reached',
      `This workspace's plan allows ${company?.siteLimit ?? 0} website(s) and all are in use.`,
      'Merge into an existing site with mergeIntoWebsiteId, or ask the owner to upgrade the plan.',
    );
  }
}

export type ResolvedSection = PortableSiteV1['pages'][number]['sections'][number] & { fp: string };

export function resolveSections(site: PortableSiteV1, idByKey: Map<string, string>) {
  const byUrl = keyByUrl(site);
  return site.pages.map((p) => ({
    ...p,
    sections: p.sections.map((s): ResolvedSection => {
      const r = parseSectionContent(
        s.type,
        resolveAssetRefs(s.content, byUrl, (k) => idByKey.get(k)),
      );
      if (!r.ok) throw new Error(`section ${s.externalKey} became invalid after asset resolution`);
      return { ...s, content: r.content, fp: fingerprint(r.content) };
    }),
  }));
}

export async function commitImport(
  ctx: SiteCtx,
  site: PortableSiteV1,
  fetched: FetchedAssets,
  opts: CommitOptions,
): Promise<ImportResult> {
  const { blobs, db, config } = ctx.services;
  const ledger: BlobLedger = { written: [] };
  try {
    const shaByKey = await writeBlobs(blobs, fetched.images, ledger);
    const idByKey = new Map([...shaByKey.keys()].map((k) => [k, newId('asset')]));
    return await db.transaction(async (tx) => {
      let websiteId: string;
      let merge: MergeReport | undefined;
      let resolved: ResolvedPage[];
      if (opts.mergeIntoWebsiteId) {
        const target = await opts.authorizeTarget(tx, opts.mergeIntoWebsiteId);
        websiteId = target.id;
        // Re-syncs reuse the target's library asset for identical bytes, so unchanged sections stay unchanged.
        const reuse = await existingAssets(tx, websiteId, [...shaByKey.values()]);
        const fresh = new Set<string>();
        for (const [key, sha] of shaByKey) {
          const id = reuse.get(sha);
          if (id) idByKey.set(key, id);
          else fresh.add(key);
        }
        resolved = resolveSections(site, idByKey);
        await insertAssets(tx, websiteId, fetched, shaByKey, idByKey, ctx.now, fresh);
        merge = await mergeSections(tx, ctx, target, resolved, opts.forceKeys ?? []);
      } else {
        resolved = resolveSections(site, idByKey);
        await checkSiteLimit(tx, ctx.actor.companyId, true);
        websiteId = newId('site');
        await tx.insert(websites).values({
          id: websiteId,
          companyId: ctx.actor.companyId,
          name: site.name,
          config: { ...site.config, businessName: site.businessName },
          theme: site.theme,
          fonts: site.fonts,
          searchVisible: false,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        });
        await tx.insert(websiteMembers).values({ websiteId, userId: ctx.actor.userId, role: 'owner' });
        await insertAssets(tx, websiteId, fetched, shaByKey, idByKey, ctx.now);
        const logo = site.brand.logo ? (idByKey.get(site.brand.logo.slice(6)) ?? null) : null;
        await tx.insert(brands).values({
          websiteId,
          palette: site.brand.palette,
          fonts: site.brand.fonts,
          style: site.brand.style,
          voice: site.brand.voice,
          logoAssetId: logo,
        });
        await insertPages(tx, websiteId, resolved, 0, ctx.now);
      }
      return {
        websiteId,
        editorUrl: `${config.baseUrl}/editor/${websiteId}`,
        mode: merge ? ('merged' as const) : ('created' as const),
        pages: resolved.length,
        sections: resolved.reduce((n, p) => n + p.sections.length, 0),
        assets: Object.fromEntries(idByKey),
        ...(merge ? { merge } : {}),
      };
    });
  } catch (err) {
    await rollbackBlobs(db, blobs, ledger);
    throw err;
  }
}

async function insertAssets(
  tx: Db,
  websiteId: string,
  fetched: FetchedAssets,
  shaByKey: Map<string, string>,
  idByKey: Map<string, string>,
  now: Date,
  only?: Set<string>,
): Promise<void> {
  const rows = [...fetched.images]
    .filter(([key]) => !only || only.has(key))
    .map(([key, img]) => ({
      id: idByKey.get(key)!,
      websiteId,
      kind: 'image',
      mime: img.mime,
      bytes: img.bytes.length,
      width: img.width,
      height: img.height,
      sha256: shaByKey.get(key)!,
      source: 'import',
      createdAt: now,
    }));
  for (let i = 0; i < rows.length; i += 500) await tx.insert(assets).values(rows.slice(i, i + 500));
}

type ResolvedPage = ReturnType<typeof resolveSections>[number];

async function existingAssets(tx: Db, websiteId: string, shas: string[]): Promise<Map<string, string>> {
  if (shas.length === 0) return new Map();
  const rows = await tx
    .select({ id: assets.id, sha: assets.sha256 })
    .from(assets)
    .where(and(eq(assets.websiteId, websiteId), inArray(assets.sha256, shas)));
  return new Map(rows.map((r) => [r.sha, r.id]));
}

/** Inserts pages (positions from `firstPosition`) with their sections, in batches. */
export async function insertPages(
  tx: Db,
  websiteId: string,
  list: readonly ResolvedPage[],
  firstPosition: number,
  now: Date,
): Promise<void> {
  const pageRows = list.map((p, i) => ({
    id: newId('page'),
    websiteId,
    slug: p.slug,
    title: p.title,
    kind: p.kind,
    excerpt: p.excerpt,
    seoTitle: p.seo.title,
    seoDescription: p.seo.description,
    position: firstPosition + i,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < pageRows.length; i += 500) await tx.insert(pages).values(pageRows.slice(i, i + 500));
  const sectionRows = list.flatMap((p, i) =>
    p.sections.map((s, position) => sectionRow(websiteId, pageRows[i]!.id, s, position, now)),
  );
  for (let i = 0; i < sectionRows.length; i += 500)
    await tx.insert(sections).values(sectionRows.slice(i, i + 500));
  await tx
    .update(websites)
    .set({ draftRev: sql`${websites.draftRev} + 1`, updatedAt: now })
    .where(eq(websites.id, websiteId));
}

export function sectionRow(
  websiteId: string,
  pageId: string,
  s: ResolvedSection,
  position: number,
  now: Date,
) {
  return {
    id: newId('sec'),
    websiteId,
    pageId,
    type: s.type,
    content: s.content,
    layout: s.layout,
    hidden: s.hidden,
    position,
    externalKey: s.externalKey,
    importFingerprint: s.fp,
    createdAt: now,
    updatedAt: now,
  };
}
