// What one tool call leaves behind (R-SURF-3, docs/authorization.md): exactly one Activity line (allowed,
// denied or failed) and one observation for /metrics, both written once its outcome is final, and the
// answer the caller gets for a refusal or a failure. A grouped write may run twice
// (src/db/group-commit.ts); only the outcome that stands is recorded.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isUnavailable } from '../../db/failures.js';
import { REPLAY_SUMMARY } from '../../domain/idempotency/keys.js';
import type { ActivityLine } from '../../domain/activity/recorder.js';
import type { Caller } from '../../kernel/caller.js';
import { Refusal, unavailable } from '../../kernel/errors.js';
import { currentRequestId } from '../../ops/request-context.js';
import type { CallDeps } from '../call.js';
import { failureResult, refusalResult } from '../envelope.js';

type Outcome = ActivityLine['outcome'];

export class CallRecord {
  /** The HTTP request's id (X-Request-Id, every log line) when there is one. */
  readonly requestId = currentRequestId() ?? randomUUID();
  /** The website the gate authorized, once it has. */
  websiteId: string | null = null;
  private readonly started = performance.now();
  /** The call's one clock reading: its context's `now` and its Activity line's time. */
  readonly now: Date;

  constructor(
    private readonly deps: CallDeps,
    private readonly caller: Caller,
    readonly tool: string,
  ) {
    this.now = deps.services.clock();
  }

  /** The Activity line of this call. */
  line(outcome: Outcome, summary: string, code: string | null = null, credits = 0): ActivityLine {
    return {
      companyId: this.caller.companyId,
      websiteId: this.websiteId,
      connectionId: this.caller.connectionId,
      tool: this.tool,
      outcome,
      code,
      summary,
      creditsSpent: credits,
      requestId: this.requestId,
      createdAt: this.now,
    };
  }

  /** The line of a call allowed: the tool's own summary, or the replay's. */
  allowed(summary: string | null, credits = 0): ActivityLine {
    return this.line('allowed', summary ?? REPLAY_SUMMARY, null, credits);
  }

  observe(outcome: Outcome, code: string | null = null): void {
    this.deps.observe?.(this.tool, outcome, code, (performance.now() - this.started) / 1000);
  }

  /** A refusal, or a failure, as the caller is told it; its line goes in the next Activity batch. */
  failed(err: unknown): CallToolResult {
    if (err instanceof Refusal) return this.answerRefusal('denied', err, `${this.tool} refused: ${err.code}`);
    // The database was away or slow past the call's bound, and nothing was committed: say so, with
    // the code and hint that tell the caller a retry is safe (R-REL-6).
    if (isUnavailable(err)) {
      return this.answerRefusal(
        'failed',
        unavailable(),
        `${this.tool} failed: the database did not answer in time`,
      );
    }
    this.deps.services.log.error({ err, requestId: this.requestId, tool: this.tool }, 'tool call failed');
    this.record('failed', `${this.tool} failed (request ${this.requestId})`);
    return failureResult(this.requestId);
  }

  private answerRefusal(outcome: Outcome, err: Refusal, summary: string): CallToolResult {
    this.record(outcome, summary, err.code);
    return refusalResult(err);
  }

  private record(outcome: Outcome, summary: string, code: string | null = null): void {
    this.observe(outcome, code);
    this.deps.activity.record(this.line(outcome, summary, code));
  }
}
