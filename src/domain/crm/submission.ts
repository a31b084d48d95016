// One path for every anonymous submission of the published site (R-VIS-1): the spam
// decision, field validation and rate limits first, then the record, its analytics event and the
// owners' email in one transaction, and delivery after commit. Nothing is written unless all passed.
// The outcome is a tagged value; the route only turns it into a page.
import type { Db } from '../../db/client.js';
import { type Visitor, recordEvents } from '../analytics/record.js';
import type { VisitorKeys } from '../analytics/visitor-keys.js';
import type { Services } from '../context.js';
import { type FormLimits, judgeForm, takeSubmission } from './form-guard.js';
import type { FieldErrors } from './visitor-fields.js';
import { echoValues } from './visitor-fields.js';
import { transaction, workspaceOf } from '../../db/transactions.js';

export type VisitorDeps = { services: Services; keys: VisitorKeys; limits: FormLimits };

export type Submission = {
  websiteId: string;
  fields: Record<string, string>;
  visitor: Visitor;
  /**
   * `form`: the site's own form, with its honeypot and fill-time token. `assistant`: a visitor's AI
   * assistant through the site's MCP endpoint; it has no rendered form, so a daily cap per address
   * takes the token's place. Everything else is the same path.
   */
  channel?: 'form' | 'assistant';
};

/** The `source` stored with a lead or booking request for a submission's channel. */
export const sourceOf = (sub: Submission) => (sub.channel === 'assistant' ? 'visitor_assistant' : 'form');

export type Outcome =
  | { outcome: 'accepted'; id: string }
  /** Spam: answered like a success so the sender learns nothing; nothing written. */
  | { outcome: 'dropped'; reason: 'honeypot' | 'forged' }
  /** Probably a person whose form was too quick or too old: shown again with their values. */
  | { outcome: 'resend'; reason: 'too_fast' | 'expired'; values: Record<string, string> }
  | { outcome: 'invalid'; errors: FieldErrors; values: Record<string, string> }
  | { outcome: 'rate_limited'; seconds: number; values: Record<string, string> }
  | { outcome: 'not_found' };

export type Accept<V> = {
  /** Field names the form has (for echoing values back). */
  names: readonly string[];
  parse(fields: Record<string, string>): { ok: true; value: V } | { ok: false; errors: FieldErrors };
  /** Writes the record and queues the owners' mail inside the transaction; returns the record id and mail ids. */
  write(
    tx: Db,
    value: V,
    now: Date,
  ): Promise<{ id: string; mailIds: string[]; path: string; kind: 'form_submit' | 'booking' }>;
};

export async function submit<V>(deps: VisitorDeps, sub: Submission, accept: Accept<V>): Promise<Outcome> {
  const { services, keys } = deps;
  const now = services.clock();
  const channel = sub.channel ?? 'form';
  const verdict = channel === 'form' ? await judgeForm(keys, sub.websiteId, sub.fields, now) : 'ok';
  if (verdict === 'honeypot' || verdict === 'forged') {
    // Operators see that spam arrives, never what it said or who sent it.
    services.log.info({ websiteId: sub.websiteId, reason: verdict }, 'form submission dropped as spam');
    return { outcome: 'dropped', reason: verdict };
  }
  const values = echoValues(accept.names, sub.fields);
  if (verdict !== 'ok') return { outcome: 'resend', reason: verdict, values };
  const parsed = accept.parse(sub.fields);
  if (!parsed.ok) return { outcome: 'invalid', errors: parsed.errors, values };
  const allowed = await takeSubmission(deps.limits, keys, sub.websiteId, sub.visitor.address, now, channel);
  if (!allowed.ok) {
    services.log.info({ websiteId: sub.websiteId }, 'form submission refused: rate limit');
    return { outcome: 'rate_limited', seconds: allowed.seconds, values };
  }
  let done: Awaited<ReturnType<Accept<V>['write']>>;
  try {
    done = await transaction(services.db, workspaceOf(sub.websiteId), async (tx) => {
      const w = await accept.write(tx, parsed.value, now);
      const event = { websiteId: sub.websiteId, kind: w.kind, path: w.path, visitor: sub.visitor, at: now };
      await recordEvents(tx, keys, [event], now);
      return w;
    });
  } catch (err) {
    // A database error quotes its parameters — the visitor's words. Log the kind of failure only,
    // and hand the caller an error that carries none of it.
    const code =
      (err as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (err as { code?: unknown }).code;
    services.log.error(
      { websiteId: sub.websiteId, code: String(code ?? 'unknown') },
      'form submission not stored',
    );
    throw new Error('The form submission could not be stored; nothing was written.');
  }
  // Delivery only ever sees committed rows; a failure leaves the row queued for the retry job.
  if (services.mail && done.mailIds.length) {
    void services.mail
      .deliverNow(done.mailIds)
      .catch((err) => services.log.error({ err }, 'mail delivery failed'));
  }
  return { outcome: 'accepted', id: done.id };
}
