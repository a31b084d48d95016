// Pages people look at (issue 3 item 5, DESIGN §5.5): GET /editor/:websiteId/* renders the draft for a
// signed-in member of the site, GET /sites/:websiteId/* the published snapshot for anyone (404 while
// never published), GET /assets/:id a library image when its site is published or the viewer is a
// member. Output comes from src/web/render/ (escaped; a CSP allows no script).
import type { Context, Hono } from 'hono';
import { loadSiteView, memberRole, pageAt, visibleAsset } from '../../domain/sites/view.js';
import type { AppDeps } from '../deps.js';
import { Layout } from '../pages/layout.js';
import { type RenderSite, SITE_CSP, renderBlogIndex, renderPage } from '../render/page.js';
import { type WebEnv, requireUser } from '../session.js';

const ID = /^[A-Za-z0-9_]{1,64}$/;
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
]);

function notFoundPage(c: Context<WebEnv>) {
  return c.html(
    <Layout title="Not found" user={c.get('user')} csrf={c.get('csrf')}>
      <div class="card">
        <h1>Not found</h1>
        <p>There is no page here.</p>
      </div>
    </Layout>,
    404,
  );
}

/** The path after /editor/:id or /sites/:id, without slashes at either end. */
function restOf(c: Context<WebEnv>, prefix: string): string | null {
  try {
    return decodeURIComponent(c.req.path.slice(prefix.length)).replace(/^\/+|\/+$/g, '');
  } catch {
    return null; // malformed %-escape: no such page
  }
}

async function renderSitePath(
  c: Context<WebEnv>,
  deps: AppDeps,
  websiteId: string,
  mode: 'draft' | 'live',
  basePath: string,
) {
  const view = await loadSiteView(deps.services.db, websiteId, mode === 'draft' ? 'draft' : 'published');
  if (!view) return notFoundPage(c);
  const site: RenderSite = {
    siteName: view.name,
    basePath,
    mode,
    nav: view.pages.filter((p) => p.kind === 'page').map((p) => ({ slug: p.slug, title: p.title })),
    hasPosts: view.pages.some((p) => p.kind === 'post'),
    brand: view.brand,
  };
  const path = restOf(c, basePath);
  if (path === null) return notFoundPage(c);
  c.header('Content-Security-Policy', SITE_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  if (path === 'blog' && !view.pages.some((p) => p.slug === 'blog')) {
    return c.html(
      renderBlogIndex(
        site,
        view.pages.filter((p) => p.kind === 'post'),
      ),
    );
  }
  const page = pageAt(view, path);
  if (!page) return notFoundPage(c);
  return c.html(renderPage(site, page));
}

export function mountPreview(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db } = deps.services;
  const editor = async (c: Context<WebEnv>) => {
    const id = c.req.param('websiteId') ?? '';
    const user = c.get('user')!;
    // A non-member learns nothing, not even whether the site exists.
    if (!ID.test(id) || !(await memberRole(db, user.id, id))) return notFoundPage(c);
    return renderSitePath(c, deps, id, 'draft', `/editor/${id}`);
  };
  app.get('/editor/:websiteId', requireUser(), editor);
  app.get('/editor/:websiteId/*', requireUser(), editor);

  const live = async (c: Context<WebEnv>) => {
    const id = c.req.param('websiteId') ?? '';
    if (!ID.test(id)) return notFoundPage(c);
    return renderSitePath(c, deps, id, 'live', `/sites/${id}`);
  };
  app.get('/sites/:websiteId', live);
  app.get('/sites/:websiteId/*', live);

  app.get('/assets/:id', async (c) => {
    const id = c.req.param('id');
    const user = c.get('user');
    const asset = ID.test(id) ? await visibleAsset(db, id, user?.id ?? null) : null;
    if (!asset || !IMAGE_TYPES.has(asset.mime)) return c.text('Not found', 404);
    const bytes = await deps.services.blobs.get(asset.sha256);
    if (!bytes) return c.text('Not found', 404);
    c.header('Content-Type', asset.mime);
    c.header('X-Content-Type-Options', 'nosniff');
    // An SVG opened directly must not run anything: sandboxed, no script.
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
    );
    return c.body(new Uint8Array(bytes));
  });
}
