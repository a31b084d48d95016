// The console's customers page: leads, bookings and contacts, and erasing one person's
// personal data. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { asPerson } from '../../domain/as-person.js';
import { customersOf } from '../../domain/crm/customers.js';
import { erasePerson, erasurePreview } from '../../domain/crm/erase.js';
import { timeZoneOf } from '../../domain/crm/booking-request.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmErasePage, CustomersPage } from '../pages/customers.js';
import type { WebEnv } from '../session.js';
import { field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/customers';
const count = (v: string | undefined) => Math.max(0, Math.min(1_000_000, Number.parseInt(v ?? '0', 10) || 0));

export function mountCustomers(app: Hono<WebEnv>, deps: AppDeps): void {
  const { services } = deps;

  app.get(BASE, async (c) => {
    const user = c.get('user')!;
    const { site, customers } = await asPerson(
      services,
      user.id,
      'customers.read',
      c.req.param('websiteId'),
      async (ctx, site) => ({ site, customers: await customersOf(ctx) }),
    );
    const q = c.req.query();
    const erased =
      q.done === 'erased'
        ? { leads: count(q.leads), bookings: count(q.bookings), contacts: count(q.contacts) }
        : null;
    return c.html(
      <CustomersPage
        user={user}
        csrf={c.get('csrf')}
        siteId={site.id}
        siteName={site.name}
        timeZone={timeZoneOf(site.config)}
        customers={customers}
        erased={erased}
      />,
    );
  });

  app.get(`${BASE}/erase`, async (c) => {
    const user = c.get('user')!;
    const email = (c.req.query('email') ?? '').slice(0, 300);
    const { site, preview } = await asPerson(
      services,
      user.id,
      'customers.erase',
      c.req.param('websiteId'),
      async (ctx, site) => ({ site, preview: await erasurePreview(ctx, email) }),
    );
    return c.html(
      <ConfirmErasePage
        user={user}
        csrf={c.get('csrf')}
        siteId={site.id}
        siteName={site.name}
        timeZone={timeZoneOf(site.config)}
        preview={preview}
      />,
    );
  });

  ownerAction(app, deps, {
    path: `${BASE}/erase`,
    action: 'customers.erase',
    input: (form) => field(form, 'email', 300),
    run: erasePerson,
    done: (id, r) => {
      const q = new URLSearchParams({
        done: 'erased',
        leads: String(r.leads),
        bookings: String(r.bookings),
        contacts: String(r.contacts),
      });
      return `${consolePath(id)}/customers?${q}`;
    },
    back: (id) => ({ href: `${consolePath(id)}/customers`, label: 'Back to the customers' }),
  });
}
