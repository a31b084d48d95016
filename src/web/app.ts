// The HTTP application: /api/mcp and its metadata, then the owner-facing pages (session + CSRF).
import { Hono } from 'hono';
import type { AppDeps } from './deps.js';
import { domainRedirect } from './domain-redirect.js';
import { capBodies } from './body-caps.js';
import { resolveClientAddress } from './client-address.js';
import { mountMcp } from './mcp-route.js';
import { API_ROUTES, ROUTES } from './routes/index.js';
import { mountOps, requestContext } from './routes/ops.js';
import { currentRequestId } from '../ops/request-context.js';
import { setAnswerHeader } from './answer-headers.js';
import { customDomainSites } from './routes/site.js';
import { NotFoundPage } from './pages/not-found.js';
import { type WebEnv, cookiePolicy, csrfGuard, sessionMiddleware } from './session.js';
import { answerRefusal, asRefusal, refusalJson, refusalPage } from './refusal.js';

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.use('*', requestContext(deps));
  app.use('*', resolveClientAddress(deps.services.config.trustProxy));
  // Every body is capped before anything reads it (R-SEC-1).
  app.use('*', capBodies());
  app.get('/healthz', (c) => c.json({ ok: true }));
  mountOps(app, deps);
  app.use('*', domainRedirect(deps));
  // Any other host than BASE_URL's answers only as a customer's published site, before any other route.
  app.use('*', customDomainSites(deps));
  mountMcp(app, deps);
  for (const mount of API_ROUTES) mount(app, deps);

  const web = new Hono<WebEnv>();
  web.use('*', async (c, next) => {
    await next();
    // Owner pages are never framed and never cached (clickjacking on approval buttons).
    setAnswerHeader(c, 'X-Frame-Options', 'DENY');
    // A page that set its own, stricter policy (rendered sites, assets) keeps it; it denies framing too.
    if (!c.res.headers.has('Content-Security-Policy'))
      setAnswerHeader(c, 'Content-Security-Policy', "frame-ancestors 'none'");
    setAnswerHeader(c, 'Cache-Control', 'no-store');
  });
  web.use(
    '*',
    sessionMiddleware(deps.services.db, deps.services.clock, cookiePolicy(deps.services.config.baseUrl)),
  );
  web.use('*', csrfGuard());
  for (const mount of ROUTES) mount(web, deps);
  // A page's refusal (the gate's or the domain's) is translated here, once; anything else is a failure.
  const notPossible = refusalPage();
  web.onError((err, c) => {
    const refusal = asRefusal(err);
    if (refusal) return answerRefusal(c, refusal, notPossible);
    throw err;
  });
  app.route('/', web);
  // A path of BASE_URL's host that matches no route: machine routes answer JSON, pages the app's
  // own not-found page (custom domains never get here: they answer as their published site).
  app.notFound((c) => {
    const p = c.req.path;
    if (p.startsWith('/api/') || p.startsWith('/v1/') || p.startsWith('/.well-known/')) {
      return c.json({ error: 'not_found', message: 'No such endpoint.' }, 404);
    }
    const vars = c as unknown as { get(k: 'user'): WebEnv['Variables']['user']; get(k: 'csrf'): string };
    return c.html(NotFoundPage({ user: vars.get('user') ?? null, csrf: vars.get('csrf') ?? '' }), 404);
  });
  app.onError((err, c) => {
    // A JSON API's refusal (pairing's rate limit, an invalid request) is an answer, not a failure.
    const refusal = asRefusal(err);
    if (refusal) return answerRefusal(c, refusal, refusalJson);
    deps.services.log.error({ err, path: c.req.path }, 'request failed');
    return c.text(`Something went wrong. Nothing was changed. Request id: ${currentRequestId() ?? '-'}`, 500);
  });
  return app;
}
