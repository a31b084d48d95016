// Typed refusals. Domain code throws these; each adapter (MCP envelope, web page, CLI) translates once.
// A Refusal is an expected "no" (logged as denied); anything else thrown is a business failure.

export const ERROR_CODES = [
  'scope_missing',
  'role_insufficient',
  'owner_only',
  'area_disabled',
  'advanced_editor_required',
  'invalid_input',
  'not_found',
  'stale_revision',
  'review_required',
  'plan_pending',
  'plan_expired',
  'plan_used',
  'plan_revision_changed',
  'plan_wrong_caller',
  'payload_too_large',
  'site_limit_reached',
  'insufficient_credits',
  'ai_consent_required',
  'not_settable',
  'rate_limited',
  'unsafe_url',
  'robots_disallowed',
  'conflict',
  /** An idempotencyKey used again by the same connection with other arguments (docs/reliability.md). */
  'idempotency_conflict',
  /** An OAuth client signed in but not yet bound to a connection by the owner (R-AUTH-5). */
  'not_connected',
  /** The database did not answer within the call's bound; nothing was changed (docs/reliability.md). */
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

/** The one "not found" for a missing record and for a record of another site or tenant (R-ISO-1). */
export function notFound(what: string): Refusal {
  return new Refusal('not_found', `No ${what} with that id is available to this connection.`, hintFor(what));
}

function hintFor(what: string): string | undefined {
  if (what === 'website') return 'Call list_sites to see the websites this connection can reach.';
  if (what === 'page' || what === 'section') return 'Call list_pages to see page and section ids.';
  if (what === 'plan') {
    return 'Plans live 5 minutes. Call the prepare_* tool again and ask the owner to approve the new plan.';
  }
  return undefined;
}

/** A call that met the database's absence or its own deadline before anything was committed. */
export function unavailable(): Refusal {
  return new Refusal(
    'unavailable',
    'The database did not answer in time, so nothing was changed.',
    'Try the same call again in a few seconds; it is safe to repeat.',
  );
}

export function invalidInput(message: string, hint?: string): Refusal {
  return new Refusal('invalid_input', message, hint);
}
