// The console's customers page: leads, bookings and contacts, and erasing one person's
// personal data. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { customerOf, customersOf } from '../../domain/crm/customers.js';
import { followUpDay, ownerUpdateCustomer } from '../../domain/crm/owner-update.js';
import { CONTACT_STATUSES, LEAD_STATUSES } from '../../domain/crm/update.js';
import { notFound } from '../../kernel/errors.js';
import { erasePerson, erasurePreview } from '../../domain/crm/erase.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmErasePage, CustomersPage, EditCustomerPage } from '../pages/customers.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/customers';
const count = (v: string | undefined) => Math.max(0, Math.min(1_000_000, Number.parseInt(v ?? '0', 10) || 0));

export function mountCustomers(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(BASE, async (c) => {
    const q = c.req.query();
    const view = await consoleView(c, deps, 'customers.read', async (ctx) => ({
      customers: await customersOf(ctx, {
        lead: q.lead?.slice(0, 200),
        booking: q.booking?.slice(0, 200),
        contact: q.contact?.slice(0, 200),
      }),
    }));
    const erased =
      q.done === 'erased'
        ? { leads: count(q.leads), bookings: count(q.bookings), contacts: count(q.contacts) }
        : null;
    return c.html(<CustomersPage {...view} erased={erased} done={q.done} />);
  });

  // The erasure review is a POST: the address is in the form's body, never in a URL (history, logs,
  // Referer). Mounted before `:kind/:id`, which would take its path.
  app.post(`${BASE}/erase/review`, async (c) => {
    // The form is read after the gate decided.
    const view = await consoleView(c, deps, 'customers.erase', async (ctx) => ({
      preview: await erasurePreview(ctx, field(await c.req.parseBody(), 'email', 300)),
    }));
    return c.html(<ConfirmErasePage {...view} />);
  });

  // A lead's or contact's status, handled, note and follow-up date (crm_update's own function).
  const KINDS = { lead: LEAD_STATUSES, contact: CONTACT_STATUSES } as const;
  const kindOf = (k: string | undefined): 'lead' | 'contact' => {
    if (k !== 'lead' && k !== 'contact') throw notFound('page');
    return k;
  };
  app.get(`${BASE}/:kind/:id`, async (c) => {
    const kind = kindOf(c.req.param('kind'));
    const view = await consoleView(c, deps, 'customers.read', async (ctx) => ({
      row: await customerOf(ctx, kind, c.req.param('id')),
    }));
    return c.html(
      <EditCustomerPage
        {...view}
        row={view.row}
        statuses={KINDS[kind]}
        followUp={followUpDay(view.row.followUpAt, view.timeZone)}
      />,
    );
  });

  ownerAction(app, deps, {
    path: `${BASE}/:kind/:id`,
    action: 'customers.update',
    input: (form, params) => ({
      record: kindOf(params.kind),
      id: params.id!,
      shown: field(form, 'shown', 40),
      status: field(form, 'status', 40),
      handled: field(form, 'handled') === '1',
      note: field(form, 'note', 4_000),
      followUp: field(form, 'followUp', 20),
    }),
    run: ownerUpdateCustomer,
    done: (id, r) => `${consolePath(id)}/customers?done=${r.changed.length ? 'updated' : 'unchanged'}`,
    back: (id) => ({ href: `${consolePath(id)}/customers`, label: 'Back to the customers' }),
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
