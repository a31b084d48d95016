// The console's bookings page: upcoming bookings, then requests, then past and closed ones, each with
// the changes its status allows now. Confirm, complete, no-show and restore are one click; decline
// (with an optional message), reschedule (a new date and time) and cancel go through a confirmation
// step. Every form carries the booking as the page showed it, so a stale page is refused, not applied.
import type { BookingChange, OwnerBooking } from '../../domain/bookings/owner.js';
import { statusWords } from '../../domain/bookings/owner.js';
import { ConfirmActions, ConfirmStep, Flash } from './confirm.js';
import { CONSOLE_CSS, type ConsoleBase, ConsoleFrame, consolePath } from './console.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

const CSS = '.rows-actions{display:flex;flex-wrap:wrap;gap:.4rem}.rows-actions form{margin:0}';

const LABEL: Record<BookingChange, string> = {
  confirm: 'Confirm',
  decline: 'Decline…',
  reschedule: 'Reschedule…',
  cancel: 'Cancel…',
  complete: 'Mark completed',
  no_show: 'Mark no-show',
  restore: 'Restore',
};
/** Changes that ask first (a message, a new time, or a consequence worth a second look). */
const ASKS_FIRST = ['decline', 'reschedule', 'cancel'] as const;
type Asked = (typeof ASKS_FIRST)[number];
export const asksFirst = (c: string): c is Asked => (ASKS_FIRST as readonly string[]).includes(c);

const DONE_WORDS: Record<BookingChange, string> = {
  confirm: 'Confirmed.',
  decline: 'Declined. The slot is free again.',
  reschedule: 'Moved to the new time.',
  cancel: 'Cancelled. The slot is free again.',
  complete: 'Marked completed.',
  no_show: 'Marked as a no-show.',
  restore: 'Restored: the booking is confirmed again.',
};
const MAIL_WORDS = {
  sending: ' The customer is emailed now.',
  queued:
    ' The email to the customer is queued, but this server has no mail server configured (SMTP_URL): it has not left.',
  no_address: ' The booking has no email address, so the customer was not told.',
  none: '',
};
/** The flash after a change: what happened and, honestly, where the customer's email is. */
export const BOOKING_DONE: Record<string, string> = Object.fromEntries(
  Object.entries(DONE_WORDS).flatMap(([change, words]) =>
    Object.entries(MAIL_WORDS).map(([mail, m]) => [`${change}.${mail}`, words + m]),
  ),
);

const bookingPath = (siteId: string, b: { id: string }, change: string) =>
  `${consolePath(siteId)}/bookings/${encodeURIComponent(b.id)}/${change}`;
const shown = (b: OwnerBooking) => ({ status: b.status, startsAt: b.startsAt.toISOString() });

function Actions(p: { siteId: string; csrf: string; b: OwnerBooking }) {
  return (
    <div class="rows-actions">
      {p.b.changes.map((change) =>
        asksFirst(change) ? (
          <a class="btn secondary" href={bookingPath(p.siteId, p.b, change)}>
            {LABEL[change]}
            <span class="sr"> the booking of {p.b.name}</span>
          </a>
        ) : (
          <ConfirmActions
            csrf={p.csrf}
            action={bookingPath(p.siteId, p.b, change)}
            hidden={shown(p.b)}
            button={{
              id: `${change}-${p.b.id}`,
              class: change === 'confirm' ? undefined : 'secondary',
              label: (
                <>
                  {LABEL[change]}
                  <span class="sr"> the booking of {p.b.name}</span>
                </>
              ),
            }}
          />
        ),
      )}
    </div>
  );
}

function Section(p: ConsoleBase & { id: string; title: string; rows: OwnerBooking[]; empty: string }) {
  return (
    <div class="card" id={p.id}>
      <h2 style="margin-top:0">{p.title}</h2>
      <DataTable
        rows={p.rows}
        empty={p.empty}
        rowAttrs={(b) => ({ 'data-booking': b.id, 'data-status': b.status })}
        columns={[
          { label: 'Starts', cell: (b) => <Time at={b.startsAt} tz={p.timeZone} /> },
          { label: 'Service', cell: (b) => b.service ?? '—' },
          {
            label: 'Customer',
            cell: (b) => (
              <>
                {b.name || b.email ? b.name : <span class="erased">Erased</span>}
                {b.email ? <div>{b.email}</div> : null}
                {b.phone ? <div>{b.phone}</div> : null}
              </>
            ),
          },
          { label: 'Message', class: 'msg', cell: (b) => b.message || '—' },
          {
            label: 'Status',
            cell: (b) => (
              <>
                {statusWords(b.status)}
                <div class="muted">
                  {b.source === 'visitor_assistant' ? "via a visitor's assistant" : 'via the site'}
                </div>
              </>
            ),
          },
          {
            label: 'Actions',
            action: true,
            cell: (b) => <Actions siteId={p.siteId} csrf={p.csrf} b={b} />,
          },
        ]}
      />
    </div>
  );
}

export function BookingsPage(
  p: ConsoleBase & {
    upcoming: OwnerBooking[];
    requested: OwnerBooking[];
    past: OwnerBooking[];
    done?: string;
  },
) {
  return (
    <ConsoleFrame
      {...p}
      title={`Bookings · ${p.siteName}`}
      heading={`Bookings of ${p.siteName}`}
      current="bookings"
      css={CSS}
      flash={<Flash messages={BOOKING_DONE} done={p.done} />}
    >
      <Section {...p} id="upcoming" title="Upcoming" rows={p.upcoming} empty="No confirmed booking ahead." />
      <Section
        {...p}
        id="requested"
        title="Requests waiting for you"
        rows={p.requested}
        empty="No request is waiting."
      />
      <Section {...p} id="past" title="Past and closed" rows={p.past} empty="None yet." />
    </ConsoleFrame>
  );
}

const ASK: Record<Asked, { title: string; button: string; text: string }> = {
  decline: {
    title: 'Decline the booking request?',
    button: 'Decline the request',
    text: 'The customer is emailed that the request could not be accepted, with your message if you write one. The slot stays free.',
  },
  reschedule: {
    title: 'Move the booking to another time?',
    button: 'Move the booking',
    text: 'The booking keeps its length and is confirmed at the new time; the customer is emailed the new time. A time in the past, or one that overlaps another confirmed booking, is refused.',
  },
  cancel: {
    title: 'Cancel the booking?',
    button: 'Cancel the booking',
    text: 'The customer is emailed that the booking is cancelled, and the slot is free again. You can restore it later while its time is still ahead.',
  },
};

export function AskBookingPage(p: ConsoleBase & { booking: OwnerBooking; change: Asked }) {
  const ask = ASK[p.change];
  const b = p.booking;
  const back = `${consolePath(p.siteId)}/bookings`;
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title={ask.title}
      css={CONSOLE_CSS}
      back={{ href: back, label: 'Bookings' }}
      heading={ask.title}
      danger={p.change === 'cancel'}
      action={bookingPath(p.siteId, b, p.change)}
      hidden={shown(b)}
      button={{ id: `confirm-${p.change}`, label: ask.button }}
      fields={
        p.change === 'decline' ? (
          <label>
            A message to the customer (optional)
            <textarea name="message" rows={4} maxlength={2000} />
          </label>
        ) : p.change === 'reschedule' ? (
          <>
            <label>
              New date
              <input type="date" name="date" required />
            </label>
            <label>
              New time ({p.timeZone})
              <input type="time" name="time" required />
            </label>
          </>
        ) : null
      }
    >
      <p class="msg">
        {b.service ?? 'A booking'} for {b.name || 'an erased customer'},{' '}
        <Time at={b.startsAt} tz={p.timeZone} /> ({statusWords(b.status)}).
      </p>
      <p>{ask.text}</p>
    </ConfirmStep>
  );
}
