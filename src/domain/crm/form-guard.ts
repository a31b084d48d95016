// Spam defences of the published site's forms (R-VIS-1), decided before anything is written:
// - a honeypot field people never see (hidden from screen readers and the tab order); filled = a bot;
// - a signed fill-time token: the page stamps when it rendered the form, HMAC'd with the shared form
//   key, so a bot can neither skip the page nor claim it waited; sent sooner than MIN_FILL_MS = a bot,
//   older than MAX_FORM_AGE_MS = an old tab, asked to send again;
// - per-address and per-website rate limits (windowed, rate-limiter-flexible; Redis when configured),
//   keyed by a salted hash of the address, never the address itself.
// The body cap is the route's (it must act before the body is read).
import { createHmac } from 'node:crypto';
import { addressKey } from '../../kernel/address-key.js';
import { safeEqual } from '../../kernel/tokens.js';
import type { VisitorKeys } from '../analytics/visitor-keys.js';
import { utcDay } from '../analytics/visitor-keys.js';

export const HONEYPOT_FIELD = 'website';
export const TOKEN_FIELD = '_t';
export const MIN_FILL_MS = 3_000;
const MAX_FORM_AGE_MS = 24 * 3_600_000;

export type FormVerdict = 'ok' | 'honeypot' | 'forged' | 'too_fast' | 'expired';

/** Limits of anonymous submissions; `take` answers 0 when allowed, else the seconds to wait. */
export type FormLimits = {
  perAddress: number;
  perWebsite: number;
  /**
   * Submissions a sender address may make through a visitor's assistant per day: the API has no
   * rendered form, so no fill-time token, and this cap stands in for it.
   */
  assistantPerDay?: number;
  take(w: { key: string; points: number; seconds: number }, key: string): Promise<number>;
};
const ADDRESS_WINDOW_S = 600;
const WEBSITE_WINDOW_S = 3_600;
const DAY_S = 86_400;

const sign = (key: string, websiteId: string, ms: number) =>
  createHmac('sha256', key).update(`form\u0000${websiteId}\u0000${ms}`).digest('base64url').slice(0, 32);

/** The token a rendered form carries: when it was rendered, signed for this website. */
export async function formToken(keys: VisitorKeys, websiteId: string, now: Date): Promise<string> {
  const ms = now.getTime();
  return `${ms.toString(36)}.${sign(await keys.formKey(), websiteId, ms)}`;
}

/** The spam decision for one submission's honeypot and token. */
export async function judgeForm(
  keys: VisitorKeys,
  websiteId: string,
  fields: Record<string, string>,
  now: Date,
): Promise<FormVerdict> {
  if ((fields[HONEYPOT_FIELD] ?? '') !== '') return 'honeypot';
  const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{32})$/.exec(fields[TOKEN_FIELD] ?? '');
  if (!m) return 'forged';
  const ms = Number.parseInt(m[1]!, 36);
  if (!safeEqual(m[2]!, sign(await keys.formKey(), websiteId, ms))) return 'forged';
  const age = now.getTime() - ms;
  if (age < MIN_FILL_MS) return 'too_fast';
  if (age > MAX_FORM_AGE_MS) return 'expired';
  return 'ok';
}

/**
 * Takes one submission from the address's and the website's allowance. The address enters the
 * limiter only as an HMAC under today's salt, so neither memory nor Redis ever holds it.
 */
export async function takeSubmission(
  limits: FormLimits,
  keys: VisitorKeys,
  websiteId: string,
  address: string,
  now: Date,
  channel: 'form' | 'assistant' = 'form',
): Promise<{ ok: true } | { ok: false; seconds: number }> {
  const who = await addressLimitKey(keys, address, now);
  if (channel === 'assistant') {
    const byDay = await limits.take(
      { key: 'assistant_address_day', points: limits.assistantPerDay ?? 0, seconds: DAY_S },
      who,
    );
    if (byDay) return { ok: false, seconds: byDay };
  }
  const byAddress = await limits.take(
    { key: 'form_address', points: limits.perAddress, seconds: ADDRESS_WINDOW_S },
    who,
  );
  if (byAddress) return { ok: false, seconds: byAddress };
  const byWebsite = await limits.take(
    { key: 'form_site', points: limits.perWebsite, seconds: WEBSITE_WINDOW_S },
    websiteId,
  );
  return byWebsite ? { ok: false, seconds: byWebsite } : { ok: true };
}

/**
 * The key an address's limits are kept under: an HMAC of its sender key (src/kernel/address-key.ts) under today's salt, so
 * neither memory nor Redis ever holds the address. The page-view cap uses it too.
 */
export async function addressLimitKey(keys: VisitorKeys, address: string, now: Date): Promise<string> {
  const salt = await keys.saltFor(utcDay(now), now);
  return createHmac('sha256', salt)
    .update(`limit\u0000${addressKey(address)}`)
    .digest('base64url')
    .slice(0, 22);
}
