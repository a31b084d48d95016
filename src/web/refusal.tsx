// The web adapter's one translation of a Refusal (the gate's or the domain's): routes throw, and the
// app's error handlers answer here. The status is decided once, by code, for every page and JSON API; a
// route only chooses how the answer looks (answerRefusalsWith): its form again with the message and
// what was typed, its own card, the not-found page. Without that, a page gets the "Not possible" page
// and a JSON API `{ error, message }`.
import type { Context, MiddlewareHandler } from 'hono';
import { type ErrorCode, Refusal, unavailable } from '../kernel/errors.js';
import { Layout } from './pages/layout.js';
import type { WebEnv } from './session.js';
import { isUnavailable } from '../db/failures.js';

export type RefusalStatus = 400 | 403 | 404 | 409 | 410 | 429 | 503;

const STATUS: Partial<Record<ErrorCode, RefusalStatus>> = {
  invalid_input: 400,
  owner_only: 403,
  role_insufficient: 403,
  area_disabled: 403,
  not_found: 404,
  plan_expired: 410,
  rate_limited: 429,
  unavailable: 503,
};

/** Any other refusal (conflict, a plan already used, a changed revision …) is a 409. */
const refusalStatus = (code: ErrorCode): RefusalStatus => STATUS[code] ?? 409;

export type RefusalAnswer = (
  c: Context<WebEnv>,
  err: Refusal,
  status: RefusalStatus,
) => Response | Promise<Response>;

declare module 'hono' {
  interface ContextVariableMap {
    refusalAnswer: RefusalAnswer | undefined;
  }
}

/** Mounted before a route: a refusal that route throws is answered by `answer`, with the status above. */
export function answerRefusalsWith(answer: RefusalAnswer): MiddlewareHandler {
  return async (c, next) => {
    c.set('refusalAnswer', answer);
    await next();
  };
}

/** Called by the error handlers: the route's own answer when it chose one, else `fallback`. */
export function answerRefusal(c: Context, err: Refusal, fallback: RefusalAnswer) {
  const answer = c.get('refusalAnswer') ?? fallback;
  if (err.code === 'unavailable') c.header('Retry-After', '5');
  return answer(c as Context<WebEnv>, err, refusalStatus(err.code));
}

/**
 * What the error handlers answer for `err`: a refusal as it is, a database that did not answer in time
 * before anything was committed as the `unavailable` refusal (src/db/failures.ts); null for a failure.
 */
export function asRefusal(err: unknown): Refusal | null {
  if (err instanceof Refusal) return err;
  return isUnavailable(err) ? unavailable() : null;
}

/** The "Not possible" page, with a way back (by default to the person's websites). */
export const refusalPage =
  (back = { href: '/', label: 'Back to your websites' }): RefusalAnswer =>
  (c, err, status) =>
    c.html(
      <Layout title="Not possible" user={c.get('user')} csrf={c.get('csrf')}>
        <div class="card">
          <h1>Not possible</h1>
          <p class="error" data-code={err.code}>
            {err.message}
          </p>
          {err.hint ? <p>{err.hint}</p> : null}
          <p>Nothing was changed.</p>
          <p>
            <a href={back.href}>{back.label}</a>
          </p>
        </div>
      </Layout>,
      status,
    );

/** A JSON API's refusal: its code and message. */
export const refusalJson: RefusalAnswer = (c, err, status) =>
  c.json({ error: err.code, message: err.message }, status);
