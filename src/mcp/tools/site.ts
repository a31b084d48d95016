// site:read tools (R-TOOL-1): read-only views of the site, its pages, draft changes, brand and analytics.
import { z } from 'zod';
import { analyticsSummary } from '../../domain/analytics/summary.js';
import { getBrand } from '../../domain/brand/read.js';
import { LIST_PAGES_DEFAULT, getPage, listDraftChanges, listPages } from '../../domain/pages/read.js';
import { listSites, siteOverview } from '../../domain/sites/read.js';
import { ParamId, UntrustedText, defineTool } from '../define-tool.js';
import { plural } from '../../kernel/plural.js';

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
const site = { scope: 'site:read', area: 'site', role: 'viewer' } as const;
const Json = z.record(z.string(), z.unknown());

export const list_sites = defineTool({
  name: 'list_sites',
  cacheable: true,
  title: 'List sites',
  description:
    'Lists the websites this connection can reach, with the id to pass as websiteId and your role on each.',
  ...site,
  workspaceLevel: true,
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    sites: z.array(
      z.object({
        websiteId: z.string(),
        name: z.string(),
        role: z.string(),
        published: z.boolean(),
        editorUrl: z.string(),
      }),
    ),
  }),
  activity: (_i, d) => `Listed ${plural(d?.sites.length ?? 0, 'site')}`,
  run: async (ctx) => ({ sites: await listSites(ctx, ctx.caller) }),
});

export const get_site_overview = defineTool({
  name: 'get_site_overview',
  cacheable: true,
  title: 'Site overview',
  description:
    'Overview of one website: name, business name, whether it is live, unpublished changes, page and section counts, domains and links.',
  ...site,
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    websiteId: z.string(),
    name: z.string(),
    businessName: z.string(),
    published: z.boolean(),
    publishedAt: z.string().nullable(),
    draftRevision: z.number(),
    unpublishedChanges: z.number(),
    pages: z.number(),
    blogPosts: z.number(),
    sections: z.number(),
    searchVisible: z.boolean(),
    domains: z.array(z.object({ hostname: z.string(), status: z.string(), primary: z.boolean() })),
    editorUrl: z.string(),
    publicUrl: z.string().nullable(),
  }),
  activity: () => 'Read the site overview',
  run: (ctx) => siteOverview(ctx),
});

export const list_pages = defineTool({
  name: 'list_pages',
  cacheable: true,
  title: 'List pages',
  description: `Draft pages and posts in order with sections; ${LIST_PAGES_DEFAULT} a call, then nextCursor.`,
  ...site,
  annotations: READ,
  transaction: 'none',
  // The cursor's length is checked before it is decoded (listPages).
  input: z.object({ cursor: z.string().optional() }),
  output: z.object({
    pages: z.array(
      z.object({
        pageId: z.string(),
        slug: z.string(),
        title: z.string(),
        kind: z.string(),
        sections: z.array(
          z.object({ sectionId: z.string(), type: z.string(), hidden: z.boolean(), label: z.string() }),
        ),
      }),
    ),
    nextCursor: z.string().optional(),
  }),
  activity: (_i, d) => `Listed ${plural(d?.pages.length ?? 0, 'page')}`,
  run: (ctx, input) => listPages(ctx, input),
});

export const get_page = defineTool({
  name: 'get_page',
  cacheable: true,
  title: 'Get page',
  description: 'One draft page with its SEO fields and every section: type, content, layout and rev.',
  ...site,
  annotations: READ,
  transaction: 'none',
  input: z.object({ pageId: ParamId.describe('Page id from list_pages.') }),
  output: z.object({
    pageId: z.string(),
    slug: z.string(),
    title: z.string(),
    kind: z.string(),
    excerpt: z.string().nullable(),
    seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
    sections: z.array(
      z.object({
        sectionId: z.string(),
        type: z.string(),
        hidden: z.boolean(),
        content: Json,
        layout: Json,
        rev: z.number(),
      }),
    ),
  }),
  activity: () => 'Read a page',
  run: (ctx, input) => getPage(ctx, input.pageId),
});

const DraftChanges = z.object({
  published: z.boolean(),
  draftRevision: z.number(),
  summary: z.string(),
  changes: z.array(
    z.object({
      pageId: z.string(),
      page: z.string(),
      sectionId: z.string().optional(),
      change: z.string(),
      description: z.string(),
    }),
  ),
  /** Visible fields that still hold add_section's placeholder text ("New text."). */
  placeholders: z.array(
    z.object({
      pageId: z.string(),
      page: z.string(),
      sectionId: z.string(),
      type: z.string(),
      field: z.string(),
      text: z.string(),
    }),
  ),
});

export const list_draft_changes = defineTool({
  name: 'list_draft_changes',
  cacheable: true,
  title: 'List draft changes',
  description:
    'What the draft changes compared with the live site, page by page and section by section, and every visible field that still shows placeholder text from add_section ("New text."). Publishing them needs the owner’s approval (prepare_publish).',
  ...site,
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: DraftChanges,
  activity: (_i, d) => `Listed ${plural(d?.changes.length ?? 0, 'draft change')}`,
  run: (ctx) => listDraftChanges(ctx),
});

export const get_brand = defineTool({
  name: 'get_brand',
  cacheable: true,
  title: 'Get brand',
  description: 'The brand: palette, fonts, visual style, voice, logo asset and Company Memory facts.',
  ...site,
  annotations: READ,
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    palette: z.record(z.string(), z.string()),
    fonts: z.object({ heading: z.string().optional(), body: z.string().optional() }),
    style: z.string(),
    voice: z.string(),
    logoAssetId: z.string().nullable(),
    companyMemory: z.array(z.string()),
  }),
  activity: () => 'Read the brand',
  run: (ctx) => getBrand(ctx),
});

export const get_analytics_summary = defineTool({
  name: 'get_analytics_summary',
  title: 'Analytics summary',
  description:
    'What the published site counted: page views, unique visitors (a network address counts once a day, an IPv6 /64 as one address, so people sharing one count once; days are summed), contact-form submissions, booking requests, top pages and daily views. Counted server-side without cookies or stored addresses; bots, previews and an address’s views past an hourly cap are not counted (no personal data).',
  ...site,
  annotations: READ,
  transaction: 'none',
  input: z.object({
    days: z.number().int().min(1).max(90).default(30).describe('Days to cover, 1-90 (30).'),
  }),
  output: z.object({
    days: z.number(),
    since: z.string(),
    pageViews: z.number(),
    uniqueVisitors: z.number(),
    formSubmissions: z.number(),
    bookings: z.number(),
    assistantCalls: z.number(),
    topPages: z.array(z.object({ path: UntrustedText, views: z.number() })),
    daily: z.array(z.object({ day: z.string(), views: z.number() })),
  }),
  activity: (i) => `Read the analytics summary for ${i.days} days`,
  run: (ctx, input) => analyticsSummary(ctx, input.days),
});
