// The console's customers page: leads, bookings and contacts, and erasing one person's
// personal data. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { customersOf } from '../../domain/crm/customers.js';
import { erasePerson, erasurePreview } from '../../domain/crm/erase.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmErasePage, CustomersPage } from '../pages/customers.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/customers';
const count = (v: string | undefined) => Math.max(0, Math.min(1_000_000, Number.parseInt(v ?? '0', 10) || 0));

export function mountCustomers(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(BASE, async (c) => {
    const view = await consoleView(c, deps, 'customers.read', async (ctx) => ({
      customers: await customersOf(ctx),
    }));
    const q = c.req.query();
    const erased =
      q.done === 'erased'
        ? { leads: count(q.leads), bookings: count(q.bookings), contacts: count(q.contacts) }
        : null;
    return c.html(<CustomersPage {...view} erased={erased} />);
  });

  app.get(`${BASE}/erase`, async (c) => {
    const email = (c.req.query('email') ?? '').slice(0, 300);
    const view = await consoleView(c, deps, 'customers.erase', async (ctx) => ({
      preview: await erasurePreview(ctx, email),
    }));
    return c.html(<ConfirmErasePage {...view} />);
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
