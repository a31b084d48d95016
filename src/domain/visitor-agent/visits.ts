// The allowance and the count of visitors' assistants' calls. Each call to a site's endpoint is taken
// from its sender's per-address allowance (an IPv6 sender counts by /64, the address enters the
// limiter only as a salted HMAC: src/domain/crm/form-guard.ts), every call of a JSON-RPC batch too, as
// /api/mcp takes each call from its connection's; and each answered tool call is recorded as an
// `assistant` analytics event through the one recording function, under the same privacy rules as a
// page view (a daily-salted hash, never the address). Sending a message or a booking request goes
// through the site's form path instead (src/domain/crm/submission.ts).
import { recordEvents, type Visitor } from '../analytics/record.js';
import type { VisitorKeys } from '../analytics/visitor-keys.js';
import type { Db } from '../../db/client.js';
import { type FormLimits, addressLimitKey } from '../crm/form-guard.js';

const READ_WINDOW_S = 60;

export type ReadLimits = FormLimits & { readsPerMinute: number };

/** 0 when the address may make one more call now, else the seconds to wait. */
export async function takeRead(
  limits: ReadLimits,
  keys: VisitorKeys,
  address: string,
  now: Date,
): Promise<number> {
  const who = await addressLimitKey(keys, address, now);
  return limits.take({ key: 'assistant_reads', points: limits.readsPerMinute, seconds: READ_WINDOW_S }, who);
}

/** One HTTP request's share of its sender's allowance (src/web/routes/visitor-mcp.ts). */
export type RequestAllowance = {
  /** The request's own point, taken at the edge before anything is loaded: 0, or the seconds to wait. */
  admit(): Promise<number>;
  /** One call of the request (each message of a batch): 0, or the seconds to wait. */
  take(): Promise<number>;
};

/**
 * The point the edge takes pays for the request's first call, so a lone call costs one point as it
 * always did; each further call of a batch takes a point of its own, so one request of 100 calls costs
 * what 100 requests cost, and the calls past the allowance are refused one by one.
 */
export function requestAllowance(
  limits: ReadLimits,
  keys: VisitorKeys,
  address: string,
  now: Date,
): RequestAllowance {
  let paid = 0;
  return {
    async admit() {
      const wait = await takeRead(limits, keys, address, now);
      if (wait === 0) paid = 1;
      return wait;
    },
    async take() {
      // Synchronous check and decrement: the calls of a batch are dispatched at once.
      if (paid > 0) {
        paid -= 1;
        return 0;
      }
      return takeRead(limits, keys, address, now);
    },
  };
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
