// The call path after authentication (R-SURF-3, docs/authorization.md): admission (rate limits, scope,
// input) -> the tool's run behind the gate, in the transaction its mode declares -> envelope -> exactly
// one Activity line (allowed, denied or failed). Each step has its module in src/mcp/call/:
// admit.ts, run.ts (gate, cache, idempotency keys), execute.ts (one executor per transaction mode),
// record.ts (Activity, metrics, the answer to a refusal or failure).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { GroupCommit } from '../db/group-commit.js';
import { outsideDeadline } from '../db/deadline.js';
import type { ActivityLine, ActivityRecorder } from '../domain/activity/recorder.js';
import { type Progress, type Services, noProgress } from '../domain/context.js';
import type { Caller } from '../kernel/caller.js';
import { Refusal } from '../kernel/errors.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { admit } from './call/admit.js';
import { execute } from './call/execute.js';
import { CallRecord } from './call/record.js';
import { ToolRun } from './call/run.js';
import type { Caches } from './caches.js';
import { okResult } from './envelope.js';
import type { CompiledTool, Registry } from './registry.js';

export type CallDeps = {
  services: Services;
  registry: Registry;
  limits: RateLimits;
  activity: ActivityRecorder;
  caches: Caches;
  /**
   * Commits a workspace's single-transaction writes in groups (src/db/group-commit.ts): those that
   * arrive while one of its transactions is in flight share the next one, and wait here rather than
   * at the database, where each would hold a pooled connection.
   */
  writeGroups: GroupCommit<ActivityLine>;
  /** Sees each call's tool, outcome, refusal code and duration (Prometheus /metrics, R-OPS-4). */
  observe?: (
    tool: string,
    outcome: 'allowed' | 'denied' | 'failed',
    code: string | null,
    seconds: number,
  ) => void;
};

/** One call of a tool the registry holds (an unknown name is answered where it is looked up). */
export async function callTool(
  deps: CallDeps,
  caller: Caller,
  tool: CompiledTool,
  args: unknown,
  progress: Progress = noProgress,
): Promise<CallToolResult> {
  const record = new CallRecord(deps, caller, tool.def.name);
  try {
    const admitted = await admit(deps, caller, tool, args);
    const run = new ToolRun(deps, caller, tool, admitted, record, progress);
    const data = await execute(deps, caller, tool.def.transaction ?? 'one', run);
    // Work that must only see committed rows (mail delivery) starts now, without delaying the answer
    // and without the call's deadline.
    for (const task of run.afterCommit) {
      void outsideDeadline(task).catch((err) =>
        deps.services.log.error({ err, requestId: record.requestId }, 'after-commit task failed'),
      );
    }
    record.observe('allowed');
    return okResult(data);
  } catch (err) {
    return record.failed(err);
  }
}

/** The attempt to call a tool that does not exist: one Activity line, then the protocol error. */
export function recordUnknownTool(deps: CallDeps, caller: Caller, name: string): void {
  const record = new CallRecord(deps, caller, 'unknown_tool');
  record.failed(
    new Refusal(
      'invalid_input',
      `There is no tool named "${name.slice(0, 64)}".`,
      'Call tools/list to see the available tools.',
    ),
  );
}
