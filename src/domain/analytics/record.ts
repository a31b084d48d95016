// Privacy-first visit recording (R-VIS-3): page views, contact-form submissions and booking
// requests of the published site, server-side, with no cookie and nothing that identifies a person.
// A visitor is a keyed hash of (website, network address) under the salt of the event's UTC day: the
// address, not the browser, because the user agent is the sender's to rotate, and one address posing
// as thousands of browsers must count once. An IPv6 address counts by its /64, which one host usually
// holds whole. People sharing one address (an office, a carrier's NAT) count as one visitor a day:
// the figure errs low, never high. The address itself is never stored, and once the day's salt is
// deleted the hash cannot be traced back. Everything that writes analytics_events — the site's routes
// and the demo seed alike — goes through recordEvents.
import { deleteInBatches } from '../../db/purge.js';
import { createHmac } from 'node:crypto';
import { lt } from 'drizzle-orm';
import { isbot } from 'isbot';
import type { Db } from '../../db/client.js';
import { analyticsEvents } from '../../db/schema.js';
import { addressKey } from '../../kernel/address-key.js';
import { type VisitorKeys, utcDay } from './visitor-keys.js';

/** `assistant`: one tool call of a visitor's AI assistant on the site's MCP endpoint (never a page view). */
export type EventKind = 'pageview' | 'form_submit' | 'booking' | 'assistant';

/** What the request tells about the visitor; used to decide and count, then forgotten. */
export type Visitor = { address: string; userAgent: string };

export type VisitEvent = {
  websiteId: string;
  kind: EventKind;
  /** The site path of the page (`/`, `/about`): always one of the site's own pages, never a raw URL. */
  path: string;
  visitor: Visitor;
  at: Date;
  /** Where the visitor came from: another site's host name only (referrerHost), never a full URL. */
  referrer?: string | null;
};

/**
 * The host of a Referer header when it names another site (where the visitor came from); null for
 * none, an unreadable one, or the site's own host (moving between its pages). Path and query are
 * dropped: they can carry a person's search words or ids.
 */
export function referrerHost(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return null;
  let host: string;
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    host = url.hostname.toLowerCase();
  } catch {
    return null;
  }
  const own = (ownHost ?? '').toLowerCase().replace(/:\d+$/, '');
  if (!host || host === own) return null;
  return host.slice(0, 253);
}

/** The visitor hash: HMAC-SHA256 of the website and the address's block under the day's salt, 128 bits as hex. */
export function visitorHash(salt: string, websiteId: string, v: Pick<Visitor, 'address'>): string {
  return createHmac('sha256', salt)
    .update(`${websiteId}\u0000${addressKey(v.address)}`)
    .digest('hex')
    .slice(0, 32);
}

/**
 * Whether a request is a person looking at the page: not a crawler or monitoring bot (the maintained
 * `isbot` pattern list), not a request without a user agent, not a browser's speculative prefetch.
 */
export function isHumanVisit(h: { userAgent: string; purpose?: string | null }): boolean {
  if (!h.userAgent.trim()) return false;
  if (h.purpose && /prefetch|prerender/i.test(h.purpose)) return false;
  return !isbot(h.userAgent);
}

/** Records events; `now` decides which salts are current (a new day's first use rotates old ones). */
export async function recordEvents(
  tx: Db,
  keys: VisitorKeys,
  events: readonly VisitEvent[],
  now: Date,
): Promise<void> {
  if (!events.length) return;
  const salts = new Map<string, string>();
  for (const day of new Set(events.map((e) => utcDay(e.at)))) salts.set(day, await keys.saltFor(day, now));
  await tx.insert(analyticsEvents).values(
    events.map((e) => ({
      websiteId: e.websiteId,
      kind: e.kind,
      path: e.path,
      referrer: e.referrer ?? null,
      visitorHash: visitorHash(salts.get(utcDay(e.at))!, e.websiteId, e.visitor),
      occurredAt: e.at,
    })),
  );
}

/**
 * Deletes analytics events older than `days` (ANALYTICS_RETENTION_DAYS); returns how many went. In
 * batches (src/db/purge.ts), so a first sweep over years of events holds no long lock and no huge
 * result; what one sweep leaves, the next takes.
 */
export async function purgeAnalytics(db: Db, now: Date, days: number): Promise<number> {
  return deleteInBatches(
    db,
    analyticsEvents,
    lt(analyticsEvents.occurredAt, new Date(now.getTime() - days * 86_400_000)),
  );
}
