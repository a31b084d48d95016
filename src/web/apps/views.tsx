// The views the MCP Apps draw beside a tool's answer (R-APP-2): the reads src/mcp/apps/apps.ts runs
// through the call path after a successful call of the tool they belong to (src/mcp/apps/catalogue.ts).
// They are declared like tools, under the same rule as the site:read tools, but are never listed or
// callable by name. What they draw comes from the site renderer the live site and the previews use:
// every written character escaped, links and library images through the same resolver. Images are
// addressed at this service's origin, the one place the app documents may load them from. Nothing here
// reads customer records: visitor text (leads, messages) never reaches an app.
import { z } from 'zod';
import { ParamId, defineTool } from '../../mcp/define-tool.js';
import { get_page } from '../../mcp/tools/site.js';
import type { DirectSiteCtx } from '../../domain/context.js';
import { diffDraft } from '../../domain/pages/draft-changes.js';
import { changedSections, pageStatus } from '../../domain/pages/page-status.js';
import { reviewPublish } from '../../domain/pages/publish-review.js';
import { loadDraftDigest, loadPublishedDigest } from '../../domain/sites/digest.js';
import { websiteRowOf } from '../../domain/sites/row.js';
import { loadSiteView, sitePathOf } from '../../domain/sites/view.js';
import { notFound } from '../../kernel/errors.js';
import { PublishChanges, REVIEW_CSS } from '../pages/plan-review.js';
import { makeResolver } from '../render/markdown.js';
import { renderPage } from '../render/page.js';
import { previewSite } from '../routes/preview.js';
import { plural } from '../../kernel/plural.js';

// Every view runs under get_page's rule, with its annotations: whoever may read the site's pages may
// see them drawn.
const { scope, area, role, annotations } = get_page;
const site = { scope, area, role, annotations };

/**
 * The draft and the live site as digests (every page, or the one page `onlyPage` on both sides), and
 * what differs between them: what list_draft_changes compares, without reading any section's content.
 */
async function digests(ctx: DirectSiteCtx, onlyPage?: string) {
  const pageIds = onlyPage === undefined ? undefined : [onlyPage];
  const draft = await loadDraftDigest(ctx.db, ctx.website.id, pageIds);
  const live =
    (await websiteRowOf(ctx)).publishedRev === null
      ? null
      : { pages: await loadPublishedDigest(ctx.db, ctx.website.id, pageIds) };
  return { draft, live, changes: diffDraft(draft, live) };
}

const origin = (ctx: DirectSiteCtx) => new URL(ctx.services.config.baseUrl).origin;
const editorPath = (ctx: DirectSiteCtx) => `/editor/${ctx.website.id}`;

const SECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The page with its changed sections outlined and labelled (a stylesheet; the markup is the site's). */
function withMarks(html: string, ids: readonly string[]): string {
  const safe = ids.filter((id) => SECTION_ID.test(id));
  if (!safe.length) return html;
  const box = safe.map((id) => `#s-${id}`).join(',');
  const label = safe.map((id) => `#s-${id}::before`).join(',');
  const css =
    `${box}{outline:3px solid #c2410c;outline-offset:-3px;position:relative}` +
    `${label}{content:"Changed";position:absolute;top:0;right:0;z-index:1;padding:3px 8px;` +
    'background:#c2410c;color:#fff;font:600 12px/1.4 system-ui,sans-serif;border-radius:0 0 0 6px}';
  return html.replace('</head>', `<style>${css}</style></head>`);
}

export const page_view = defineTool({
  name: 'page_view',
  title: 'Page preview (app)',
  description: 'The draft page as visitors will see it, drawn by the site renderer, changed sections marked.',
  ...site,
  transaction: 'none',
  // Not cached: the navigation reads the site's services (its Book link), a table the read cache
  // does not follow (src/mcp/caches.ts).
  cacheable: false,
  input: z.object({ pageId: ParamId }),
  output: z.object({
    title: z.string(),
    path: z.string(),
    status: z.enum(['new', 'changed', 'live']),
    marked: z.array(z.string()),
    html: z.string(),
  }),
  activity: () => 'Drew a page preview for an app',
  async run(ctx, input) {
    // The page with its sections; the other pages only for the navigation.
    const draft = await loadSiteView(ctx.db, ctx.website.id, 'draft', input.pageId);
    const page = draft?.pages.find((p) => p.id === input.pageId);
    if (!draft || !page) throw notFound('page');
    const { changes } = await digests(ctx, page.id);
    const look = { basePath: editorPath(ctx), mode: 'draft' as const, assetBase: origin(ctx) };
    const { site: shown } = await previewSite(ctx.db, draft, look);
    const status = pageStatus(page.id, changes);
    const marked = status === 'changed' ? changedSections(page.id, changes) : [];
    const html = withMarks(renderPage(shown, page), marked);
    return { title: page.title, path: sitePathOf(draft, page), status, marked, html };
  },
});

/** The review's own page around it: the approval page's styles, in a document of its own. */
const REVIEW_PAGE_CSS =
  'body{margin:0;padding:.75rem;font:15px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}' +
  'h3{font-size:1.05rem;margin:1rem 0 .25rem}h3:first-child{margin-top:0}.muted{color:#666}';

export const changes_view = defineTool({
  name: 'changes_view',
  title: 'Draft changes (app)',
  description: 'What publishing would change, drawn as the approval page draws it.',
  ...site,
  transaction: 'none',
  cacheable: true,
  input: z.object({}),
  output: z.object({ changed: z.boolean(), html: z.string() }),
  activity: () => 'Drew the draft changes for an app',
  async run(ctx) {
    // The review shows the text itself: the whole draft and live site, as prepare_publish reads them.
    const draft = await loadSiteView(ctx.db, ctx.website.id, 'draft');
    if (!draft) throw notFound('website');
    const live = await loadSiteView(ctx.db, ctx.website.id, 'published');
    const changes = diffDraft(draft.pages, live);
    const review = reviewPublish(draft.pages, live);
    const body = await (
      <PublishChanges review={review} resolve={makeResolver(editorPath(ctx), origin(ctx))} />
    ).toString();
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${REVIEW_PAGE_CSS}${REVIEW_CSS}</style></head><body>${body}</body></html>`;
    return { changed: changes.length > 0, html };
  },
});

const ListedPage = z.object({ title: z.string(), path: z.string(), kind: z.string() });

export const site_view = defineTool({
  name: 'site_view',
  title: 'Site pages (app)',
  description: 'The site’s pages with where each stands: new, changed or live; pages that would go offline.',
  ...site,
  transaction: 'none',
  cacheable: true,
  input: z.object({}),
  output: z.object({
    pages: z.array(
      ListedPage.extend({
        pageId: z.string(),
        status: z.enum(['new', 'changed', 'live']),
        sections: z.number(),
      }),
    ),
    offline: z.array(ListedPage),
  }),
  activity: (_i, d) => `Drew ${plural(d?.pages.length ?? 0, 'page')} for an app`,
  async run(ctx) {
    const { draft, live, changes } = await digests(ctx);
    const kept = new Set(draft.map((p) => p.id));
    const addressed = { pages: draft };
    return {
      pages: draft.map((p) => ({
        pageId: p.id,
        title: p.title,
        path: sitePathOf(addressed, p),
        kind: p.kind,
        status: pageStatus(p.id, changes),
        sections: p.sections.length,
      })),
      offline: (live?.pages ?? [])
        .filter((p) => !kept.has(p.id))
        .map((p) => ({ title: p.title, path: sitePathOf(live!, p), kind: p.kind })),
    };
  },
});

export const APP_VIEWS = [page_view, changes_view, site_view];
