// What every published-site route shares (R-VIS-1): which site a request is for, its published view
// with the booking offer and the forms' fill-time token, the response headers of the published site,
// and its plain error pages.
import type { Context } from 'hono';
import type { ViewLimits } from '../../domain/analytics/page-views.js';
import { bookableServices } from '../../domain/crm/booking-request.js';
import { HONEYPOT_FIELD, TOKEN_FIELD, formToken } from '../../domain/crm/form-guard.js';
import { type SiteView, loadSiteView } from '../../domain/sites/view.js';
import type { AppDeps } from '../deps.js';
import type { SiteForms } from '../render/forms.js';
import { type BookingOffer, type RenderSite, SITE_CSP } from '../render/page.js';
import { siteChrome } from '../render/site-path.js';
import { visitorDepsOf } from './visitor-deps.js';
import { VISITOR_MCP_PATH } from './visitor-mcp.js';

/** A published site as addressed: /sites/<id> on the service's host, or the root of a custom domain. */
export type SiteRef = { websiteId: string; basePath: string; ownHost: boolean };
export type Loaded = { view: SiteView; offer: BookingOffer | null; site: RenderSite };

/** No script, no framing, no caching (each page carries a fresh form token), no sniffing. */
export function siteHeaders(c: Context) {
  c.header('Content-Security-Policy', SITE_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
}

export function plainPage(c: Context, status: 404 | 413 | 415, title: string, text: string) {
  siteHeaders(c);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
    status,
  );
}
export const notFound = (c: Context) => plainPage(c, 404, 'Not found', 'There is no page here.');

export function siteLoader(deps: AppDeps) {
  const { db, clock, config } = deps.services;
  const visitorDeps = visitorDepsOf(deps);
  const { keys, limits } = visitorDeps;
  const viewLimits: ViewLimits = { perAddress: config.viewLimitPerAddress, take: limits.take };

  async function load(ref: SiteRef, state?: SiteForms['state']): Promise<Loaded | null> {
    const view = await loadSiteView(db, ref.websiteId, 'published');
    if (!view) return null;
    const bookable = await bookableServices(db, ref.websiteId);
    const offer = bookable?.services.length
      ? { timeZone: bookable.timeZone, services: bookable.services }
      : null;
    const forms: SiteForms = {
      actionBase: `${ref.basePath}/_forms/`,
      token: await formToken(keys, ref.websiteId, clock()),
      honeypot: HONEYPOT_FIELD,
      tokenField: TOKEN_FIELD,
      state,
    };
    const site: RenderSite = {
      ...siteChrome(view, offer),
      basePath: ref.basePath,
      mode: 'live',
      noindex: !view.searchVisible,
      forms,
      ...(view.visitorAgents ? { mcpHref: `${ref.basePath}${VISITOR_MCP_PATH}` } : {}),
    };
    return { view, offer, site };
  }

  return { load, keys, visitorDeps, viewLimits };
}

export type SiteLoader = ReturnType<typeof siteLoader>;
