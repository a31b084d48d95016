// exportSite: a website's draft as PortableSiteV1 (the inverse of import_site). Library asset ids in
// section content become `asset:<assetId>` references, listed in `assets` with a URL on this service.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { assets, brands, companies, websites } from '../db/schema.js';
import { loadDraftRows } from '../domain/sites/draft.js';
import { ASSET_ID } from '../domain/sections/types.js';
import { notFound } from '../kernel/errors.js';
import { mapStrings } from './refs.js';
import type { PortableSection, PortableSiteV1 } from './schema.js';

type Settings = PortableSiteV1['config'];

export async function exportSite(tx: Db, websiteId: string, baseUrl: string): Promise<PortableSiteV1> {
  const [w] = await tx.select().from(websites).where(eq(websites.id, websiteId));
  if (!w) throw notFound('website');
  const [company] = await tx
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, w.companyId));
  const [brand] = await tx.select().from(brands).where(eq(brands.websiteId, websiteId));
  const draft = await loadDraftRows(tx, websiteId);
  const used = new Set<string>();
  const toRef = (s: string) => {
    if (!ASSET_ID.test(s)) return s;
    used.add(s);
    return `asset:${s}`;
  };
  const { businessName, ...config } = w.config as Record<string, unknown>;
  const assetRows = await tx
    .select()
    .from(assets)
    .where(eq(assets.websiteId, websiteId))
    .orderBy(asc(assets.createdAt));
  const logo = brand?.logoAssetId ?? null;
  if (logo) used.add(logo);
  const pagesOut = draft.map((p) => ({
    slug: p.slug,
    title: p.title,
    kind: p.kind as 'page' | 'post',
    excerpt: p.excerpt,
    ...(p.kind === 'post' ? { date: p.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
    seo: { title: p.seoTitle, description: p.seoDescription },
    sections: p.sections.map((s) => ({
      externalKey: s.externalKey ?? s.id,
      type: s.type as PortableSection['type'],
      content: mapStrings(s.content, toRef) as Record<string, unknown>,
      layout: s.layout as PortableSection['layout'],
      hidden: s.hidden,
    })),
  }));
  return {
    version: 1,
    name: w.name,
    businessName: typeof businessName === 'string' ? businessName : (company?.name ?? w.name),
    brand: {
      palette: brand?.palette ?? {},
      fonts: brand?.fonts ?? {},
      style: brand?.style ?? '',
      voice: brand?.voice ?? '',
      logo: logo ? `asset:${logo}` : null,
    },
    config: config as Settings,
    theme: w.theme as Settings,
    fonts: w.fonts as Settings,
    pages: pagesOut,
    assets: assetRows
      .filter((a) => used.has(a.id))
      .map((a) => ({ key: a.id, url: `${baseUrl}/assets/${a.id}` })),
  };
}
