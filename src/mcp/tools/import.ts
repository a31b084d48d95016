// content:write tools that bring a whole site in (R-IMP-1, R-MIG-1): import_site (PortableSiteV1) and
// migrate_site_from_url (crawl + convert). Both run without the per-call transaction (transaction:
// 'own') so network work happens outside it; they commit in one transaction of their own. A merge
// target is authorized by the gate under the tool's own rule (ctx.authorizeWebsite, from the call path).
import { z } from 'zod';
import { importSite } from '../../portable/importer.js';
import { reachOf } from '../../migrate/report.js';
import { defineTool } from '../define-tool.js';
import { plural } from '../../kernel/plural.js';

const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;

const IMPORT_RULE = {
  name: 'import_site',
  scope: 'content:write',
  area: 'content',
  role: 'editor',
  // The gate refuses a full plan before any fetch; a merge creates no site (R-SITE-2).
  createsSite: { exceptWith: 'mergeIntoWebsiteId' },
} as const;
const MIGRATE_RULE = { ...IMPORT_RULE, name: 'migrate_site_from_url' } as const;

const ParamMergeInto = z
  .string()
  .min(1)
  .max(64)
  .describe('Website id (from list_sites) to merge into instead of creating a new draft site.');
const ParamForceKeys = z
  .array(z.string().min(1).max(120))
  .max(3000)
  .describe('externalKeys of app-edited sections to overwrite anyway (otherwise reported as conflicts).');

const MergeReport = z.object({
  restorePointId: z.string(),
  inserted: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  conflicts: z.array(z.string()),
  forced: z.array(z.string()),
  newPages: z.number(),
});

const ImportResult = z.object({
  websiteId: z.string(),
  editorUrl: z.string(),
  mode: z.enum(['created', 'merged']),
  pages: z.number(),
  sections: z.number(),
  assets: z.record(z.string(), z.string()),
  merge: MergeReport.optional(),
  reach: z
    .object({ thisConnection: z.boolean(), how: z.string() })
    .describe('Whether this connection can read and edit the site, and what to do if it cannot.'),
});

export const import_site = defineTool({
  ...IMPORT_RULE,
  title: 'Import site',
  description:
    'Creates a new unpublished draft website from a PortableSiteV1 payload (format: /schemas/portable-site-v1.json) and returns its id and editor URL. Images listed in `assets` are fetched and re-validated server-side. With mergeIntoWebsiteId it merges into an existing site instead: sections match by externalKey, unedited ones are updated, app-edited ones are kept and reported as conflicts unless listed in forceKeys; config, theme and fonts are never touched and a restore point is taken first.',
  annotations: WRITE,
  idempotent: 'key',
  transaction: 'own',
  input: z.object({
    site: z
      .looseObject({ version: z.literal(1) })
      .describe('The PortableSiteV1 payload; see /schemas/portable-site-v1.json.'),
    mergeIntoWebsiteId: ParamMergeInto.optional(),
    forceKeys: ParamForceKeys.optional(),
  }),
  output: ImportResult,
  activity: (_i, d) =>
    d?.mode === 'merged'
      ? `Merged an import into a site: ${d.merge?.inserted ?? 0} new, ${d.merge?.updated ?? 0} updated, ${plural(d.merge?.conflicts.length ?? 0, 'conflict')}`
      : `Imported a draft site with ${plural(d?.pages ?? 0, 'page')} and ${plural(d?.sections ?? 0, 'section')}`,
  run: async (ctx, input) => {
    const r = await importSite(ctx, input, { authorizeTarget: ctx.authorizeWebsite });
    return { ...r, reach: reachOf(ctx.caller, r, ctx.services.config.baseUrl) };
  },
});

export const migrate_site_from_url = defineTool({
  ...MIGRATE_RULE,
  title: 'Migrate site from URL',
  description:
    "Crawls a live website (bounded, same-site, robots.txt respected), rebuilds each page from the service's sections (heroes with their background image, text with links, features, testimonials, pricing, FAQ, contact, footer; blog posts as posts) and creates an unpublished draft site in one call. Scripts, booking widgets, embeds and pop-ups are not carried over; actionsRequired lists what to redo, failedPages and skippedAssets every page and image not brought in, reach whether this connection can open the new site. With mergeIntoWebsiteId it re-syncs an imported site under the import_site conflict rules (sections keep their externalKey: source page + section id or heading). Sends progress notifications while it crawls.",
  annotations: WRITE,
  idempotent: 'key',
  transaction: 'own',
  input: z.object({
    url: z.string().min(1).max(2000).describe('The live site address (http or https).'),
    maxPages: z.number().int().min(1).max(200).optional().describe('Pages to fetch at most (default 50).'),
    mergeIntoWebsiteId: ParamMergeInto.optional(),
    forceKeys: ParamForceKeys.optional(),
  }),
  output: ImportResult.extend({
    pagesFetched: z.number(),
    pagesFailed: z.number(),
    truncated: z.boolean(),
    assetsSkipped: z.number(),
    actionsRequired: z.array(z.string()),
    failedPages: z.array(z.object({ url: z.string(), reason: z.string(), detail: z.string() })),
    skippedAssets: z.array(z.object({ url: z.string(), reason: z.string() })),
  }),
  activity: (_i, d) =>
    `Migrated a site from an address: ${plural(d?.pagesFetched ?? 0, 'page')} fetched, ${d?.pagesFailed ?? 0} failed (${d?.mode ?? 'created'})`,
  run: async (ctx, input) => {
    // The crawler and converter (cheerio, css-tree, robots-parser) load on the first
    // migration, not in every serving process (docs/performance.md).
    const { migrateSite } = await import('../../migrate/migrate.js');
    const r = await migrateSite(ctx, input, { authorizeTarget: ctx.authorizeWebsite });
    return { ...r, reach: reachOf(ctx.caller, r, ctx.services.config.baseUrl) };
  },
});
