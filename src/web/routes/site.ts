// The published site for visitors (R-WEB-1 `GET /sites/:websiteId/*`, R-VIS-1): its pages, the
// contact and booking-request forms, thank-you pages and library images — at /sites/<id>/… and at the
// root of a connected, verified custom domain. Mounted outside the owner pages' session middleware:
// the published site sets no cookie on anyone. Page views are counted here, server-side, capped per
// address (src/domain/analytics/page-views.ts); the editor preview never calls it.
// Routes only translate: every rule lives in src/domain.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { countPageView } from '../../domain/analytics/page-views.js';
import { referrerHost } from '../../domain/analytics/record.js';
import { isHumanVisit } from '../../domain/analytics/record.js';
import { liveWebsiteForHost } from '../../domain/domains/site-host.js';
import { visibleAsset } from '../../domain/sites/view.js';
import { memberRole } from '../../gate/person.js';
import type { AppDeps } from '../deps.js';
import { customHost } from '../../kernel/custom-host.js';
import { type RenderSite, renderNotice } from '../render/page.js';
import { renderSitePath } from '../render/site-path.js';
import { cookiePolicy, sessionOf } from '../session.js';
import { clientAddress } from '../client-address.js';
import { siteForms } from './site-forms.js';
import { VISITOR_MCP_PATH, visitorMcp } from './visitor-mcp.js';
import { type SiteRef, notFound, siteHeaders, siteLoader } from './site-load.js';

const ID = /^[A-Za-z0-9_]{1,64}$/;
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
]);

export function publishedSite(deps: AppDeps) {
  const { db, clock, log, config } = deps.services;
  const loader = siteLoader(deps);
  const { load, keys, viewLimits } = loader;
  const forms = siteForms(loader);

  /**
   * Counts a page view unless it is a bot, a prefetch, a HEAD, a member of the site looking, or past
   * its address's hourly allowance.
   */
  async function countView(c: Context, ref: SiteRef, path: string) {
    try {
      if (c.req.method !== 'GET') return;
      const userAgent = c.req.header('user-agent') ?? '';
      const purpose = c.req.header('sec-purpose') ?? c.req.header('purpose');
      if (!isHumanVisit({ userAgent, purpose })) return;
      const now = clock();
      if (ref.ownHost) {
        const user = await sessionOf(c, db, now, cookiePolicy(config.baseUrl));
        if (user && (await memberRole(db, { userId: user.id }, ref.websiteId))) return;
      }
      const view = {
        websiteId: ref.websiteId,
        path,
        visitor: { address: clientAddress(c), userAgent },
        at: now,
        referrer: referrerHost(c.req.header('referer'), c.req.header('host')),
      };
      await countPageView(db, keys, viewLimits, view, now);
    } catch (err) {
      // A lost count never costs the visitor the page; the log names the site, never the visitor.
      log.warn({ err, websiteId: ref.websiteId }, 'page view not recorded');
    }
  }

  async function page(c: Context, ref: SiteRef, rest: string) {
    const loaded = await load(ref);
    if (!loaded) return notFound(c);
    const { view, offer, site } = loaded;
    const path = rest.replace(/^\/+|\/+$/g, '');
    siteHeaders(c);
    if (path === '_sent/contact' || path === '_sent/booking') return c.html(thanks(site, path));
    const shown = renderSitePath(site, view, offer, path);
    if (!shown) return notFound(c);
    await countView(c, ref, shown.visit);
    return c.html(shown.html);
  }

  function thanks(site: RenderSite, path: string) {
    const home = { href: `${site.basePath}/`, label: `Back to ${site.siteName}` };
    return path === '_sent/contact'
      ? renderNotice(site, {
          title: 'Thank you — your message was sent',
          paragraphs: [`${site.siteName} has your message and will reply to the email address you gave.`],
          back: home,
        })
      : renderNotice(site, {
          title: 'Thank you — your booking request was sent',
          paragraphs: [
            'It is a request, not yet a booking.',
            `${site.siteName} will email you to confirm the time or suggest another.`,
          ],
          back: home,
        });
  }

  async function asset(c: Context, id: string, userId: string | null) {
    const row = ID.test(id) ? await visibleAsset(db, id, userId) : null;
    if (!row || !IMAGE_TYPES.has(row.mime)) return c.text('Not found', 404);
    const bytes = await deps.services.blobs.get(row.sha256);
    if (!bytes) return c.text('Not found', 404);
    c.header('Content-Type', row.mime);
    c.header('X-Content-Type-Options', 'nosniff');
    // An SVG opened directly must not run anything: sandboxed, no script.
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
    );
    return c.body(new Uint8Array(bytes));
  }

  return { page, asset, ...forms };
}

export function mountPublishedSite(app: Hono, deps: AppDeps): void {
  const site = publishedSite(deps);
  const ref = (c: Context): SiteRef | null => {
    const id = c.req.param('websiteId') ?? '';
    return ID.test(id) ? { websiteId: id, basePath: `/sites/${id}`, ownHost: true } : null;
  };
  const rest = (c: Context, r: SiteRef): string | null => {
    try {
      return decodeURIComponent(c.req.path.slice(r.basePath.length));
    } catch {
      return null; // malformed %-escape: no such page
    }
  };
  const get = async (c: Context) => {
    const r = ref(c);
    const p = r && rest(c, r);
    return r && p !== null ? site.page(c, r, p) : notFound(c);
  };
  app.get('/sites/:websiteId', get);
  app.get('/sites/:websiteId/*', get);
  app.post('/sites/:websiteId/_forms/*', site.cap, async (c) => {
    const r = ref(c);
    const p = r && rest(c, r);
    return r && p !== null ? site.form(c, r, p) : notFound(c);
  });
  // Browsers ask every host for an icon; answered here so the owner pages' session middleware never
  // hands a visitor of the published site a cookie.
  app.get('/favicon.ico', (c) => c.body(null, 404));
  // Library images: published ones for anyone; a member's draft images through their session cookie,
  // read here without ever setting one.
  app.get('/assets/:id', async (c) => {
    const user = await sessionOf(
      c,
      deps.services.db,
      deps.services.clock(),
      cookiePolicy(deps.services.config.baseUrl),
    );
    return site.asset(c, c.req.param('id'), user?.id ?? null);
  });
}

/**
 * A host other than the service's own (BASE_URL's) answers as a customer's website and nothing else,
 * and never with a cookie (docs/operating.md, the reverse proxy). A verified
 * hostname of a published site serves that site's pages, images and forms at its root, counted like
 * /sites/<id>/…; every other path, and every path of a host that serves no published site (an
 * unpublished site's domain, an unknown name pointed here), is 404. So the sign-in page, the owner
 * pages, /api/mcp, /v1/ and the OAuth metadata exist only on BASE_URL's host: a session opened on a
 * tenant's domain would otherwise follow that domain wherever its owner points it next. Runs after
 * the canonical-address redirect; the service's own host, loopback names and IP literals pass through.
 */
export function customDomainSites(deps: AppDeps): MiddlewareHandler {
  const site = publishedSite(deps);
  const assistants = visitorMcp(deps);
  const own = new URL(deps.services.config.baseUrl).hostname.toLowerCase();
  const answer = async (c: Context, host: string, websiteId: string | null): Promise<Response> => {
    if (!websiteId) return notFound(c);
    const r: SiteRef = { websiteId, basePath: '', ownHost: false };
    const path = c.req.path;
    // The site's endpoint for visitors' assistants is one of its visitor routes.
    if (path === VISITOR_MCP_PATH) return assistants(c, { websiteId, ownHost: false, host });
    const read = c.req.method === 'GET' || c.req.method === 'HEAD';
    const asset = /^\/assets\/([A-Za-z0-9_]{1,64})$/.exec(path);
    if (read && asset) return site.asset(c, asset[1]!, null);
    if (read) {
      let p: string;
      try {
        p = decodeURIComponent(path);
      } catch {
        return notFound(c);
      }
      return site.page(c, r, p);
    }
    if (c.req.method === 'POST' && path.startsWith('/_forms/')) {
      return (
        (await site.cap(c, async () => {
          c.res = await site.form(c, r, path);
        })) ?? c.res
      );
    }
    return notFound(c);
  };
  return async (c, next) => {
    const host = customHost(c.req.header('host'), own);
    if (!host) return next();
    const res = await answer(c, host, await liveWebsiteForHost(deps.services.db, host));
    // Nothing on this path sets a cookie; should a later change make one, it still never leaves.
    res.headers.delete('Set-Cookie');
    return res;
  };
}
