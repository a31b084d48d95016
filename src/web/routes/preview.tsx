// The draft preview (R-WEB-6): GET /editor/:websiteId/* renders the draft for a
// signed-in member of the site. The published site, its forms and library images are served by
// ./site.ts, without a session; a preview never counts as a visit. Output comes from src/web/render/
// (escaped; a CSP allows no script).
import type { Context, Hono } from 'hono';
import type { Db } from '../../db/client.js';
import { bookableServices } from '../../domain/crm/booking-request.js';
import { HONEYPOT_FIELD, TOKEN_FIELD } from '../../domain/crm/form-guard.js';
import { type SiteView, loadSiteView } from '../../domain/sites/view.js';
import { authorizePerson } from '../../gate/person.js';
import type { AppDeps } from '../deps.js';
import { Layout } from '../pages/layout.js';
import { answerRefusalsWith } from '../refusal.js';
import { type BookingOffer, type RenderSite, SITE_CSP } from '../render/page.js';
import { renderSitePath, siteChrome } from '../render/site-path.js';
import { type WebEnv, requireUser } from '../session.js';

const ID = /^[A-Za-z0-9_]{1,64}$/;

export function notFoundPage(c: Context<WebEnv>) {
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

async function renderEditorPath(
  c: Context<WebEnv>,
  deps: AppDeps,
  websiteId: string,
  mode: 'draft' | 'live',
  basePath: string,
) {
  const view = await loadSiteView(deps.services.db, websiteId, mode === 'draft' ? 'draft' : 'published');
  if (!view) return notFoundPage(c);
  return renderView(c, deps.services.db, view, mode, basePath);
}

/**
 * How a member's preview draws `view`: the live site's navigation (with the booking pages the site
 * will offer once it is live) and the forms visitors will see, disabled. The MCP Apps' page preview
 * draws a draft the same way (src/web/apps/views.tsx).
 */
export async function previewSite(
  db: Db,
  view: SiteView,
  look: Pick<RenderSite, 'basePath' | 'mode' | 'draftNote' | 'assetBase'>,
): Promise<{ site: RenderSite; offer: BookingOffer | null }> {
  const bookable = await bookableServices(db, view.websiteId, { live: false });
  const offer = bookable?.services.length
    ? { timeZone: bookable.timeZone, services: bookable.services }
    : null;
  const site: RenderSite = {
    ...siteChrome(view, offer),
    ...look,
    // Nothing posts from a preview.
    forms: { actionBase: null, token: '', honeypot: HONEYPOT_FIELD, tokenField: TOKEN_FIELD },
  };
  return { site, offer };
}

/**
 * Renders the page of `view` at the request's path under `basePath` (escaped; CSP allows no script),
 * as previewSite draws it.
 */
export async function renderView(
  c: Context<WebEnv>,
  db: Db,
  view: SiteView,
  mode: 'draft' | 'live',
  basePath: string,
  draftNote?: string,
) {
  const path = restOf(c, basePath);
  if (path === null) return notFoundPage(c);
  const { site, offer } = await previewSite(db, view, {
    basePath,
    mode,
    ...(draftNote ? { draftNote } : {}),
  });
  const shown = renderSitePath(site, view, offer, path);
  if (!shown) return notFoundPage(c);
  c.header('Content-Security-Policy', SITE_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  return c.html(shown.html);
}

export function mountPreview(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db } = deps.services;
  const editor = async (c: Context<WebEnv>) => {
    const id = c.req.param('websiteId') ?? '';
    const user = c.get('user')!;
    // A non-member learns nothing, not even whether the site exists (the gate's not_found).
    if (!ID.test(id)) return notFoundPage(c);
    await authorizePerson(db, { userId: user.id }, 'site.preview', id);
    return renderEditorPath(c, deps, id, 'draft', `/editor/${id}`);
  };
  // A refusal of the gate is the same not-found page as an unknown site.
  const hidden = answerRefusalsWith((c) => notFoundPage(c));
  app.get('/editor/:websiteId', requireUser(), hidden, editor);
  app.get('/editor/:websiteId/*', requireUser(), hidden, editor);
}
