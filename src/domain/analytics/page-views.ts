// Counting a page view of the published site, capped per sender: one address (an IPv6 /64) counts at
// most `perAddress` views of a website an hour, so a script reloading a page cannot inflate the
// figures the owner reads. Views past the cap are served as usual and not counted. The limit is keyed
// like the forms' limits (src/domain/crm/form-guard.ts): an HMAC of the address block under today's
// salt, never the address.
import type { Db } from '../../db/client.js';
import { type FormLimits, addressLimitKey } from '../crm/form-guard.js';
import { type VisitEvent, recordEvents } from './record.js';
import type { VisitorKeys } from './visitor-keys.js';

const VIEW_WINDOW_S = 3_600;

/** The page-view cap: views counted per address per website per hour, and the windowed limiter. */
export type ViewLimits = { perAddress: number; take: FormLimits['take'] };

/** Records one page view unless its address has used up the hour's allowance; true when counted. */
export async function countPageView(
  db: Db,
  keys: VisitorKeys,
  limits: ViewLimits,
  view: Omit<VisitEvent, 'kind'>,
  now: Date,
): Promise<boolean> {
  const who = await addressLimitKey(keys, view.visitor.address, now);
  const wait = await limits.take(
    { key: 'view_address', points: limits.perAddress, seconds: VIEW_WINDOW_S },
    `${view.websiteId}:${who}`,
  );
  if (wait) return false;
  await recordEvents(db, keys, [{ ...view, kind: 'pageview' }], now);
  return true;
}
