// The console's bookings page and the owner's changes to a booking (src/domain/bookings/owner.ts).
// Owner only, through the person gate; the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { BOOKING_CHANGES, bookingsOf, changeBooking } from '../../domain/bookings/owner.js';
import { notFound } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { AskBookingPage, BookingsPage, asksFirst } from '../pages/bookings.js';
import { consolePath } from '../pages/console.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId/bookings';

export function mountBookings(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(BASE, async (c) => {
    const view = await consoleView(c, deps, 'bookings.read', bookingsOf);
    return c.html(<BookingsPage {...view} done={c.req.query('done')} />);
  });

  app.get(`${BASE}/:bookingId/:change`, async (c) => {
    const change = c.req.param('change');
    if (!asksFirst(change)) throw notFound('page');
    const view = await consoleView(c, deps, 'bookings.read', bookingsOf);
    const booking = [...view.upcoming, ...view.requested, ...view.past].find(
      (b) => b.id === c.req.param('bookingId') && b.changes.includes(change),
    );
    if (!booking) throw notFound('booking');
    return c.html(<AskBookingPage {...view} booking={booking} change={change} />);
  });

  const list = (id: string) => `${consolePath(id)}/bookings`;
  for (const change of BOOKING_CHANGES) {
    ownerAction(app, deps, {
      path: `${BASE}/:bookingId/${change}`,
      action: 'bookings.change',
      input: (form, params) => ({
        bookingId: params.bookingId!,
        shown: { status: field(form, 'status', 40), startsAt: field(form, 'startsAt', 40) },
        message: field(form, 'message', 4_000),
        date: field(form, 'date', 20),
        time: field(form, 'time', 20),
      }),
      run: (ctx, input) => changeBooking(ctx, change, input),
      done: (id, r) => `${list(id)}?done=${change}.${r.mail}`,
      back: (id) => ({ href: list(id), label: 'Back to the bookings' }),
    });
  }
}
