// The console's services page and the owner's Publish / Unpublish of a service
// (src/domain/commerce/catalogue.ts). Owner only, through the person gate; the CSRF guard has checked
// every POST.
import type { Hono } from 'hono';
import { listServices, setServiceStatus } from '../../domain/commerce/catalogue.js';
import { money } from '../../domain/money.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ServicesPage } from '../pages/services.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/services';

export function mountServices(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(BASE, async (c) => {
    const view = await consoleView(c, deps, 'services.read', async (ctx) => ({
      services: (await listServices(ctx)).services.map((s) => ({
        ...s,
        price: s.priceCents ? money(s.priceCents, s.currency) : null,
      })),
    }));
    return c.html(<ServicesPage {...view} done={c.req.query('done')} />);
  });

  const list = (id: string) => `${consolePath(id)}/services`;
  for (const [path, to, done] of [
    ['publish', 'public', 'published'],
    ['unpublish', 'draft', 'unpublished'],
  ] as const) {
    ownerAction(app, deps, {
      path: `${BASE}/:serviceId/${path}`,
      action: 'services.publish',
      input: (form, params) => ({ serviceId: params.serviceId!, shown: field(form, 'status', 20), to }),
      run: setServiceStatus,
      done: (id) => `${list(id)}?done=${done}`,
      back: (id) => ({ href: list(id), label: 'Back to the services' }),
    });
  }
}
