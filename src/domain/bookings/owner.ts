// The owner's booking calendar (R-CRM-2): confirming or declining a request, rescheduling, cancelling,
// marking completed or a no-show, and restoring a cancelled booking. Human-only, the owner's console:
// the changes that tell the customer something email them through the outbox in the same
// transaction, which is why crm_update (a tool) never makes them.
//
// Every change names the booking as the owner saw it (its status and start); the row is locked and
// compared first, so a stale form or a second owner acting at the same moment is refused with nothing
// changed. A slot is taken by another confirmed booking of the same website whose time overlaps: a
// request, a declined and a cancelled booking hold none.
import { type SQL, and, asc, desc, eq, gt, lt, ne, not } from 'drizzle-orm';
import { CLOSED_BOOKING, bookings, services, websites } from '../../db/schema.js';
import { Refusal, invalidInput, notFound } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { Db } from '../../db/client.js';
import type { SiteCtx } from '../context.js';
import { DATE, TIME, requestedStart, timeZoneOf } from '../crm/booking-request.js';
import { queueMail } from '../mail/outbox.js';
import { stripInvisible } from '../untrusted.js';

export const BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'declined',
  'cancelled',
  'completed',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_CHANGES = [
  'confirm',
  'decline',
  'reschedule',
  'cancel',
  'complete',
  'no_show',
  'restore',
] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

type Rule = {
  from: readonly BookingStatus[];
  to: BookingStatus;
  /** `future`: only before the booking starts; `started`: only once it has. */
  when?: 'future' | 'started';
  /** The booking takes its slot: refused when another confirmed booking overlaps. */
  takesSlot?: boolean;
  /** The Activity line (no personal data). */
  line: string;
};

export const BOOKING_RULES: Record<BookingChange, Rule> = {
  confirm: {
    from: ['requested'],
    to: 'confirmed',
    when: 'future',
    takesSlot: true,
    line: 'The owner confirmed a booking request; the customer is emailed the time.',
  },
  decline: {
    from: ['requested'],
    to: 'declined',
    line: 'The owner declined a booking request; the customer is emailed.',
  },
  reschedule: {
    from: ['requested', 'confirmed'],
    to: 'confirmed',
    when: 'future',
    takesSlot: true,
    line: 'The owner moved a booking to another time; the customer is emailed the new time.',
  },
  cancel: {
    from: ['confirmed'],
    to: 'cancelled',
    line: 'The owner cancelled a booking; the customer is emailed and the slot is free again.',
  },
  complete: {
    from: ['confirmed', 'no_show'],
    to: 'completed',
    when: 'started',
    line: 'The owner marked a booking completed.',
  },
  no_show: {
    from: ['confirmed', 'completed'],
    to: 'no_show',
    when: 'started',
    line: 'The owner marked a booking as a no-show.',
  },
  restore: {
    from: ['cancelled'],
    to: 'confirmed',
    when: 'future',
    takesSlot: true,
    line: 'The owner restored a cancelled booking; the customer is emailed.',
  },
};

/** The changes a booking in `status` starting at `startsAt` allows at `now` (what the page offers). */
export function changesFor(status: string, startsAt: Date, now: Date): BookingChange[] {
  return BOOKING_CHANGES.filter((c) => {
    const rule = BOOKING_RULES[c];
    if (!(rule.from as readonly string[]).includes(status)) return false;
    if (c === 'reschedule') return true; // to a new time ahead, whenever the old one was
    if (rule.when === 'future') return startsAt > now;
    if (rule.when === 'started') return startsAt <= now;
    return true;
  });
}

export type BookingChangeInput = {
  bookingId: string;
  /** The booking as the owner's page showed it. */
  shown: { status: string; startsAt: string };
  /** decline: an optional message to the customer. */
  message?: string;
  /** reschedule: the new local date and time in the website's zone. */
  date?: string;
  time?: string;
};

/**
 * Whether the customer's email leaves now, waits in the outbox (no mail server), could not be written
 * (the booking has no address, e.g. after an erasure), or the change tells the customer nothing.
 */
export type MailState = 'sending' | 'queued' | 'no_address' | 'none';

export type BookingChangeResult = { bookingId: string; status: BookingStatus; mail: MailState };

const MAX_MESSAGE = 2_000;

export async function changeBooking(
  ctx: SiteCtx,
  change: BookingChange,
  input: BookingChangeInput,
): Promise<BookingChangeResult> {
  const rule = BOOKING_RULES[change];
  const [row] = await ctx.tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, input.bookingId), eq(bookings.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw notFound('booking');
  if (row.status !== input.shown.status || row.startsAt.toISOString() !== input.shown.startsAt) {
    throw new Refusal(
      'conflict',
      `This booking changed after your page was shown: it is now ${statusWords(row.status)}, ${row.startsAt.toISOString() === input.shown.startsAt ? 'at the same time' : 'at another time'}.`,
      'Open the bookings again and decide on what they show now.',
    );
  }
  assertAllowed(change, row, ctx.now);
  const duration = row.endsAt.getTime() - row.startsAt.getTime();
  const site = await siteOf(ctx);
  let startsAt = row.startsAt;
  if (change === 'reschedule') startsAt = newStart(input, site.timeZone, ctx.now);
  else if (rule.when === 'future' && row.startsAt <= ctx.now) {
    throw new Refusal(
      'not_settable',
      `This booking's time has passed, so it cannot be ${PAST[change]}.`,
      'Reschedule it to a new time instead.',
    );
  }
  const endsAt = new Date(startsAt.getTime() + duration);
  if (rule.takesSlot) await assertSlotFree(ctx, row.id, startsAt, endsAt);
  const message = (input.message ?? '').trim();
  if (message.length > MAX_MESSAGE)
    throw invalidInput(`The message can be at most ${MAX_MESSAGE} characters.`);

  await ctx.tx
    .update(bookings)
    .set({ status: rule.to, startsAt, endsAt, updatedAt: ctx.now })
    .where(eq(bookings.id, row.id));
  await recordOwnerAction(ctx, `${change}_booking`, rule.line);

  const letter = customerLetter(change, {
    siteName: site.name,
    service: await serviceName(ctx, row.serviceId),
    when: formatLocal(startsAt, site.timeZone),
    before: formatLocal(row.startsAt, site.timeZone),
    message,
  });
  let mail: MailState = letter ? 'no_address' : 'none';
  if (letter && row.customerEmail) {
    const id = await queueMail(
      ctx.tx,
      { websiteId: ctx.website.id, kind: 'booking', to: row.customerEmail, ...letter },
      ctx.now,
    );
    const mailer = ctx.services.mail;
    if (mailer) ctx.afterCommit?.(() => mailer.deliverNow([id]));
    mail = mailer?.enabled ? 'sending' : 'queued';
  }
  return { bookingId: row.id, status: rule.to, mail };
}

/**
 * Refuses a change the booking's status does not allow, or one that needs the booking to have started
 * (completed, no-show) before it has. crm_update's no-show asks the same (update.ts).
 */
export function assertAllowed(
  change: BookingChange,
  row: { status: string; startsAt: Date },
  now: Date,
): void {
  const rule = BOOKING_RULES[change];
  if (!(rule.from as readonly string[]).includes(row.status)) {
    throw new Refusal(
      'not_settable',
      `A booking that is ${statusWords(row.status)} cannot be ${PAST[change]}.`,
    );
  }
  if (rule.when === 'started' && row.startsAt > now) {
    throw new Refusal(
      'not_settable',
      `This booking has not started yet, so it cannot be ${PAST[change]}.`,
      'Try again after the booking’s start time.',
    );
  }
}

const PAST: Record<BookingChange, string> = {
  confirm: 'confirmed',
  decline: 'declined',
  reschedule: 'rescheduled',
  cancel: 'cancelled',
  complete: 'marked completed',
  no_show: 'marked as a no-show',
  restore: 'restored',
};

export function statusWords(status: string): string {
  return status === 'no_show' ? 'a no-show' : status;
}

function newStart(input: BookingChangeInput, timeZone: string, now: Date): Date {
  const date = (input.date ?? '').trim();
  const time = (input.time ?? '').trim();
  if (!DATE.test(date)) throw invalidInput('Choose the new date (for example 2026-12-24).');
  if (!TIME.test(time)) throw invalidInput('Choose the new time (for example 14:30).');
  const at = requestedStart(date, time, timeZone, now);
  if (!at.ok) throw new Refusal('not_settable', at.message);
  return at.at;
}

async function assertSlotFree(ctx: SiteCtx, id: string, startsAt: Date, endsAt: Date): Promise<void> {
  const [other] = await ctx.tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.websiteId, ctx.website.id),
        ne(bookings.id, id),
        eq(bookings.status, 'confirmed'),
        lt(bookings.startsAt, endsAt),
        gt(bookings.endsAt, startsAt),
      ),
    )
    .orderBy(asc(bookings.startsAt))
    .limit(1);
  if (other) {
    throw new Refusal(
      'conflict',
      'That time overlaps another confirmed booking, so the slot is taken.',
      'Choose another time, or cancel the other booking first.',
    );
  }
}

async function siteOf(ctx: SiteCtx) {
  const [site] = await ctx.tx
    .select({ name: websites.name, config: websites.config })
    .from(websites)
    .where(eq(websites.id, ctx.website.id));
  return { name: site!.name, timeZone: timeZoneOf(site!.config) };
}

async function serviceName(ctx: SiteCtx, serviceId: string | null): Promise<string> {
  if (!serviceId) return 'your appointment';
  const [s] = await ctx.tx
    .select({ name: services.name })
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.websiteId, ctx.website.id)));
  return s ? `"${s.name}"` : 'your appointment';
}

/** "Thursday 24 December 2026 at 14:30 (Europe/Amsterdam)": what a customer reads in the email. */
export function formatLocal(at: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${day} at ${time} (${timeZone})`;
}

type Letter = { siteName: string; service: string; when: string; before: string; message: string };

/** The customer's email for a change, or null for one that tells them nothing (completed, no-show). */
function customerLetter(change: BookingChange, l: Letter): { subject: string; text: string } | null {
  const sign = `\n\n—\nSent by ${l.siteName}. Reply to this email if you have a question.`;
  const own = l.message ? `\n\nA message from ${l.siteName}:\n${stripInvisible(l.message)}` : '';
  switch (change) {
    case 'confirm':
      return {
        subject: `Your booking at ${l.siteName} is confirmed`,
        text: `Your booking of ${l.service} is confirmed for ${l.when}.${sign}`,
      };
    case 'decline':
      return {
        subject: `Your booking request at ${l.siteName}`,
        text: `We are sorry: your request to book ${l.service} on ${l.when} could not be accepted.${own}${sign}`,
      };
    case 'reschedule':
      return {
        subject: `Your booking at ${l.siteName} has a new time`,
        text: `Your booking of ${l.service} has moved from ${l.before} to ${l.when}.${sign}`,
      };
    case 'cancel':
      return {
        subject: `Your booking at ${l.siteName} is cancelled`,
        text: `Your booking of ${l.service} on ${l.when} is cancelled.${sign}`,
      };
    case 'restore':
      return {
        subject: `Your booking at ${l.siteName} is back on`,
        text: `Your booking of ${l.service} on ${l.when} is confirmed again.${sign}`,
      };
    default:
      return null;
  }
}

export type OwnerBooking = {
  id: string;
  status: string;
  service: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  message: string;
  source: string;
  startsAt: Date;
  endsAt: Date;
  changes: BookingChange[];
};

const SHOWN = 100;

/**
 * The console's lists as queries, each an index range of at most a page (test/db/list-plans.test.ts):
 * upcoming and requested soonest first (bookings_status_idx); the rest latest first, as the closed ones
 * ahead (bookings_closed_idx) and then those that have begun (bookings_website_idx, back from now). One
 * condition over both of the last would walk every booking ahead.
 */
export function bookingLists(db: Db, websiteId: string, now: Date) {
  const site = eq(bookings.websiteId, websiteId);
  const ahead = gt(bookings.startsAt, now);
  const read = (where: SQL | undefined, order: SQL[]) =>
    db
      .select({ b: bookings, service: services.name })
      .from(bookings)
      .leftJoin(services, eq(services.id, bookings.serviceId))
      .where(where)
      .orderBy(...order)
      .limit(SHOWN);
  const soonest = [asc(bookings.startsAt), asc(bookings.id)];
  const latest = [desc(bookings.startsAt), desc(bookings.id)];
  return {
    upcoming: read(and(site, eq(bookings.status, 'confirmed'), ahead), soonest),
    requested: read(and(site, eq(bookings.status, 'requested')), soonest),
    closedAhead: read(and(site, ahead, CLOSED_BOOKING(bookings.status)), latest),
    begun: read(and(site, not(ahead), ne(bookings.status, 'requested')), latest),
  };
}

/**
 * The bookings as the console shows them: upcoming (confirmed, not started) soonest first, then the
 * requests soonest first, then the rest (past or closed) latest first. Visitor text is stripped of
 * invisible characters and shown as text.
 */
export async function bookingsOf(ctx: SiteCtx): Promise<{
  upcoming: OwnerBooking[];
  requested: OwnerBooking[];
  past: OwnerBooking[];
}> {
  const lists = bookingLists(ctx.tx, ctx.website.id, ctx.now);
  // One after the other: a transaction is one connection.
  const up = await lists.upcoming;
  const req = await lists.requested;
  const closedAhead = await lists.closedAhead;
  const before = await lists.begun;
  const rest = [...closedAhead, ...before].slice(0, SHOWN);
  const clean = (s: string | null) => (s === null ? null : stripInvisible(s));
  const view = ({ b, service }: (typeof up)[number]): OwnerBooking => ({
    id: b.id,
    status: b.status,
    service,
    name: clean(b.customerName)!,
    email: clean(b.customerEmail),
    phone: clean(b.customerPhone),
    message: clean(b.message)!,
    source: b.source,
    startsAt: b.startsAt,
    endsAt: b.endsAt,
    changes: changesFor(b.status, b.startsAt, ctx.now),
  });
  return { upcoming: up.map(view), requested: req.map(view), past: rest.map(view) };
}
