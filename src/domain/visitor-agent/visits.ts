// The allowance and the count of visitors' assistants' requests. Each request to a site's endpoint is
// taken from its sender's per-address allowance (an IPv6 sender counts by /64, the address enters the
// limiter only as a salted HMAC: src/domain/crm/form-guard.ts), and each tool call is recorded as an
// `assistant` analytics event through the one recording function, under the same privacy rules as a
// page view (a daily-salted hash, never the address). Sending a message or a booking request goes
// through the site's form path instead (src/domain/crm/submission.ts).
import { recordEvents, type Visitor } from '../analytics/record.js';
import type { VisitorKeys } from '../analytics/visitor-keys.js';
import type { Db } from '../../db/client.js';
import { type FormLimits, addressLimitKey } from '../crm/form-guard.js';

const READ_WINDOW_S = 60;

/** 0 when the address may make one more request now, else the seconds to wait. */
export async function takeRead(
  limits: FormLimits & { readsPerMinute: number },
  keys: VisitorKeys,
  address: string,
  now: Date,
): Promise<number> {
  const who = await addressLimitKey(keys, address, now);
  return limits.take({ key: 'assistant_reads', points: limits.readsPerMinute, seconds: READ_WINDOW_S }, who);
}

/** Records one tool call of a visitor's assistant on the site path it concerned (`/` for the site). */
export async function countAssistantCall(
  db: Db,
  keys: VisitorKeys,
  websiteId: string,
  path: string,
  visitor: Visitor,
  now: Date,
): Promise<void> {
  await recordEvents(db, keys, [{ websiteId, kind: 'assistant', path, visitor, at: now }], now);
}
