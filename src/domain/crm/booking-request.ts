// Booking requests from the published site (R-VIS-2): a public service with a duration offers
// a form (preferred date and time, name, email, note). A request that passes the spam defences becomes
// a booking with status `requested` — a wish, not a confirmed slot: confirming, cancelling and
// rescheduling stay with the owner's app and the reviewed rail (R-CRM-2); crm_update still only sets
// `no_show`. Date and time are read in the website's time zone (config.timezone, else UTC).
import { TZDate } from '@date-fns/tz';
import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import { bookings, services, websites } from '../../db/schema.js';
import { money } from '../money.js';
import { notifyOwners } from './notify-owner.js';
import { type Outcome, type Submission, type VisitorDeps, sourceOf, submit } from './submission.js';
import { VisitorEmail, VisitorName, VisitorText, parseFields } from './visitor-fields.js';

const BOOKING_FIELDS = ['date', 'time', 'name', 'email', 'note'] as const;
const MAX_DAYS_AHEAD = 366;

export type BookableService = {
  id: string;
  name: string;
  description: string;
  durationMinutes: number;
  price: string | null;
};

/**
 * The public services with a duration of a published website, with its name and time zone. The
 * previews (`live: false`) ask the same of a site not yet published: what it will offer once live.
 */
export async function bookableServices(db: Db, websiteId: string, opts: { live: boolean } = { live: true }) {
  const [site] = await db
    .select({ name: websites.name, config: websites.config })
    .from(websites)
    .where(
      opts.live
        ? and(eq(websites.id, websiteId), isNotNull(websites.publishedRev), isNull(websites.deletedAt))
        : and(eq(websites.id, websiteId), isNull(websites.deletedAt)),
    );
  if (!site) return null;
  const rows = await db
    .select()
    .from(services)
    .where(
      and(eq(services.websiteId, websiteId), eq(services.status, 'public'), gt(services.durationMinutes, 0)),
    )
    .orderBy(asc(services.name), asc(services.id));
  const list: BookableService[] = rows.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    durationMinutes: s.durationMinutes!,
    price: s.priceCents ? money(s.priceCents, s.currency) : null,
  }));
  return { siteName: site.name, timeZone: timeZoneOf(site.config), services: list };
}

/** Zone names already checked: building an Intl.DateTimeFormat per call dominated a page's preview. */
const ZONES = new Map<string, string>();

/** The website's IANA time zone when it is one this runtime knows, else UTC. */
export function timeZoneOf(config: Record<string, unknown>): string {
  const tz = typeof config.timezone === 'string' ? config.timezone : '';
  if (!tz) return 'UTC';
  let zone = ZONES.get(tz);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      zone = 'UTC';
    }
    // Bounded: a few hundred zones exist; anything past that is not worth keeping.
    if (ZONES.size < 1000) ZONES.set(tz, zone);
  }
  return zone;
}

export const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function requestShape() {
  return {
    date: z.string().trim().regex(DATE, { error: 'Please choose a date (for example 2026-12-24).' }),
    time: z.string().trim().regex(TIME, { error: 'Please choose a time (for example 14:30).' }),
    name: VisitorName,
    email: VisitorEmail,
    note: VisitorText('The note', 2_000, { multiline: true }),
  } as const;
}

/**
 * The instant meant by a local date and time in the website's zone (a visitor's request, the owner's
 * new time for a booking), or a message why not: it must exist, lie ahead, and within a year.
 */
export function requestedStart(
  date: string,
  time: string,
  timeZone: string,
  now: Date,
): { ok: true; at: Date } | { ok: false; field: 'date' | 'time'; message: string } {
  const [, y, mo, d] = DATE.exec(date)!.map(Number) as number[];
  const [, h, mi] = TIME.exec(time)!.map(Number) as number[];
  const at = new TZDate(y!, mo! - 1, d!, h!, mi!, timeZone);
  if (at.getFullYear() !== y || at.getMonth() !== mo! - 1 || at.getDate() !== d) {
    return { ok: false, field: 'date', message: 'That date does not exist; please choose another.' };
  }
  const instant = new Date(at.getTime());
  if (instant <= now) return { ok: false, field: 'time', message: 'Please choose a time in the future.' };
  if (instant.getTime() - now.getTime() > MAX_DAYS_AHEAD * 86_400_000) {
    return { ok: false, field: 'date', message: 'Please choose a date within the next year.' };
  }
  return { ok: true, at: instant };
}

export async function submitBookingRequest(
  deps: VisitorDeps,
  sub: Submission & { serviceId: string },
): Promise<Outcome> {
  const offer = await bookableServices(deps.services.db, sub.websiteId);
  const service = offer?.services.find((s) => s.id === sub.serviceId);
  if (!offer || !service) return { outcome: 'not_found' };
  const now = deps.services.clock();
  return submit(deps, sub, {
    names: BOOKING_FIELDS,
    parse(fields) {
      const r = parseFields(requestShape(), fields);
      if (!r.ok) return r;
      const start = requestedStart(r.value.date, r.value.time, offer.timeZone, now);
      if (!start.ok) return { ok: false, errors: { [start.field]: start.message } };
      return { ok: true, value: { ...r.value, startsAt: start.at } };
    },
    async write(tx, v, at) {
      const id = newId('bkg');
      const endsAt = new Date(v.startsAt.getTime() + service.durationMinutes * 60_000);
      await tx.insert(bookings).values({
        id,
        websiteId: sub.websiteId,
        serviceId: service.id,
        status: 'requested',
        customerName: v.name,
        customerEmail: v.email,
        message: v.note,
        source: sourceOf(sub),
        startsAt: v.startsAt,
        endsAt,
        createdAt: at,
        updatedAt: at,
      });
      const when = `${v.date} at ${v.time} (${offer.timeZone})`;
      const mailIds = await notifyOwners(
        tx,
        {
          websiteId: sub.websiteId,
          siteName: offer.siteName,
          kind: 'booking_request',
          subject: `New booking request on your website ${offer.siteName}`,
          replyTo: v.email,
          lines: [
            sub.channel === 'assistant'
              ? `Someone's AI assistant asked for them to book "${service.name}" on ${when}.`
              : `Someone asked to book "${service.name}" on ${when}.`,
            'It is a request: confirm or decline it on the Bookings page of this website in Sitegate (Your websites, then the site, then Bookings).',
            '',
            `Name: ${v.name}`,
            `Email: ${v.email}`,
            ...(v.note ? ['', v.note] : []),
          ],
        },
        at,
      );
      return { id, mailIds, path: `/book/${service.id}`, kind: 'booking' };
    },
  });
}
