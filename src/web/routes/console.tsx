// The owner's console for one website: pages and posts (delete), publish and unpublish,
// delete and restore the site. Signed-in pages; the CSRF guard of session.ts has already checked every
// POST. Each action asks the gate for the person (src/gate/person.ts, through asPerson) and runs one
// domain function; a refusal propagates to the web app's one translation (src/web/refusal.tsx).
import type { Hono } from 'hono';
import { asPerson } from '../../domain/as-person.js';
import { deletePage } from '../../domain/pages/delete.js';
import { consolePage, siteConsole } from '../../domain/sites/console.js';
import { deleteSite, restoreDeletedSite } from '../../domain/sites/delete.js';
import { setVisitorAgents } from '../../domain/visitor-agent/site.js';
import {
  ownerPublish,
  ownerPublishView,
  ownerUnpublish,
  ownerUnpublishView,
} from '../../plans/owner-publish.js';
import type { AppDeps } from '../deps.js';
import {
  ConfirmDeletePage,
  ConsolePageView,
  PublishPage,
  UnpublishPage,
  consolePath,
} from '../pages/console.js';
import { type WebEnv, requireUser } from '../session.js';
import { field, ownerAction } from './owner-action.js';
import { VISITOR_MCP_PATH } from './visitor-mcp.js';

const BASE = '/dashboard/sites/:websiteId';

export function mountConsole(app: Hono<WebEnv>, deps: AppDeps): void {
  const { services } = deps;
  app.use('/dashboard/sites/*', requireUser());

  app.get(BASE, async (c) => {
    const user = c.get('user')!;
    const after = c.req.query('after')?.slice(0, 300);
    const site = await asPerson(services, user.id, 'site.console', c.req.param('websiteId'), (ctx) =>
      siteConsole(ctx, { after }),
    );
    return c.html(
      <ConsolePageView
        user={user}
        csrf={c.get('csrf')}
        site={site}
        done={c.req.query('done')}
        visitorMcpUrl={`${services.config.baseUrl}/sites/${encodeURIComponent(site.id)}${VISITOR_MCP_PATH}`}
      />,
    );
  });

  app.get(`${BASE}/pages/:pageId/delete`, async (c) => {
    const user = c.get('user')!;
    const { site, page } = await asPerson(
      services,
      user.id,
      'page.delete',
      c.req.param('websiteId'),
      async (ctx, s) => ({
        site: s,
        page: await consolePage(ctx, c.req.param('pageId')),
      }),
    );
    return c.html(
      <ConfirmDeletePage
        user={user}
        csrf={c.get('csrf')}
        siteId={site.id}
        siteName={site.name}
        page={page}
      />,
    );
  });

  const back = (id: string) => ({ href: consolePath(id), label: 'Back to the site console' });
  ownerAction(app, deps, {
    path: `${BASE}/pages/:pageId/delete`,
    action: 'page.delete',
    input: (_form, params) => params.pageId!,
    run: deletePage,
    done: (id) => `${consolePath(id)}?done=page_deleted`,
    back,
  });

  app.get(`${BASE}/publish`, async (c) => {
    const user = c.get('user')!;
    const id = c.req.param('websiteId');
    const view = await ownerPublishView(services, user.id, id);
    return c.html(<PublishPage user={user} csrf={c.get('csrf')} siteId={id} view={view} />);
  });

  app.post(`${BASE}/publish`, async (c) => {
    const user = c.get('user')!;
    const id = c.req.param('websiteId');
    const shown = field(await c.req.parseBody(), 'revision');
    const r = await ownerPublish(services, user.id, id, shown);
    if (r.published) return c.redirect(`${consolePath(id)}?done=published`, 303);
    return c.html(<PublishPage user={user} csrf={c.get('csrf')} siteId={id} view={r.view} moved />, 409);
  });

  app.get(`${BASE}/unpublish`, async (c) => {
    const user = c.get('user')!;
    const id = c.req.param('websiteId');
    const view = await ownerUnpublishView(services, user.id, id);
    return c.html(<UnpublishPage user={user} csrf={c.get('csrf')} siteId={id} {...view} />);
  });

  app.post(`${BASE}/unpublish`, async (c) => {
    const id = c.req.param('websiteId');
    await ownerUnpublish(services, c.get('user')!.id, id);
    return c.redirect(`${consolePath(id)}?done=unpublished`, 303);
  });

  ownerAction(app, deps, {
    path: `${BASE}/visitor-agents`,
    action: 'site.visitor_agents',
    input: (form) => field(form, 'on') === '1',
    run: async (ctx, on) => {
      await setVisitorAgents(ctx, on);
      return on;
    },
    done: (id, on) => `${consolePath(id)}?done=${on ? 'assistants_on' : 'assistants_off'}`,
    back,
  });

  ownerAction(app, deps, {
    path: `${BASE}/delete`,
    action: 'site.delete',
    input: (form) => field(form, 'name'),
    run: deleteSite,
    done: () => '/?done=site_deleted',
    back,
  });

  ownerAction(app, deps, {
    path: `${BASE}/restore`,
    action: 'site.restore',
    input: () => undefined,
    run: (ctx) => restoreDeletedSite(ctx),
    done: (id) => `${consolePath(id)}?done=restored`,
    back: () => ({ href: '/', label: 'Back to your websites' }),
  });
}
