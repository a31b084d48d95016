// The call path after authentication (R-SURF-3, docs/authorization.md): rate limits -> validation -> gate ->
// domain function in one transaction -> envelope -> exactly one Activity line (allowed, denied or failed). A
// keyed call of a tool declared `idempotent: 'key'` runs once per connection and key
// (src/domain/idempotency/).
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Caller } from '../kernel/caller.js';
import type { Db } from '../db/client.js';
import type { GroupCommit } from '../db/group-commit.js';
import { type CommitLine, lineAtCommit } from '../domain/activity/at-commit.js';
import type { ActivityLine, ActivityRecorder } from '../domain/activity/recorder.js';
import { faultPoint } from '../kernel/fault.js';
import { type Progress, type Services, noProgress } from '../domain/context.js';
import { REPLAY_SUMMARY, runOnce } from '../domain/idempotency/keys.js';
import { assertCreatedSiteStands } from '../domain/idempotency/replay.js';
import { Refusal, invalidInput } from '../kernel/errors.js';
import { unstorableInput } from '../domain/storable.js';
import { admitInput, authorize } from '../gate/authorize.js';
import { currentRequestId } from '../ops/request-context.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { failureResult, okResult, refusalResult } from './envelope.js';
import type { Caches } from './caches.js';
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

export async function callTool(
  deps: CallDeps,
  caller: Caller,
  name: string,
  args: unknown,
  progress: Progress = noProgress,
): Promise<CallToolResult> {
  // The HTTP request's id (X-Request-Id, every log line) when there is one.
  const requestId = currentRequestId() ?? randomUUID();
  const started = performance.now();
  const now = deps.services.clock();
  const tool = deps.registry.get(name);
  let websiteId: string | null = null;
  // Seen once per call, when its outcome is final (a grouped write may run twice: group-commit.ts).
  const observe = (outcome: 'allowed' | 'denied' | 'failed', code?: string) =>
    deps.observe?.(
      tool ? tool.def.name : 'unknown_tool',
      outcome,
      code ?? null,
      (performance.now() - started) / 1000,
    );
  const entry = (
    outcome: 'allowed' | 'denied' | 'failed',
    summary: string,
    code?: string,
    credits = 0,
  ): ActivityLine => {
    return {
      companyId: caller.companyId,
      websiteId,
      connectionId: caller.connectionId,
      tool: tool ? tool.def.name : 'unknown_tool',
      outcome,
      code: code ?? null,
      summary,
      creditsSpent: credits,
      requestId,
      createdAt: now,
    };
  };
  // Reads, refusals and failures: batched (a crash may lose the last milliseconds of them).
  const line = (outcome: 'allowed' | 'denied' | 'failed', summary: string, code?: string) => {
    observe(outcome, code);
    deps.activity.record(entry(outcome, summary, code));
  };

  try {
    if (!tool) {
      throw invalidInput(
        `There is no tool named "${name.slice(0, 64)}".`,
        'Call tools/list to see the available tools.',
      );
    }
    await deps.limits.consume(caller, tool.def.bucket);
    if (!caller.scopes.includes(tool.def.scope)) {
      // The gate decides (it re-checks this); failing before parsing keeps the refusal code stable.
      await authorize(deps.services.db, caller, tool.def, undefined);
    }
    const def = tool.def;
    // The key is the call path's, never the tool's: `run`, Activity and the fingerprint see the rest.
    const { idempotencyKey, ...input } = parseInput(tool, args);
    const key = def.idempotent === 'key' && typeof idempotencyKey === 'string' ? idempotencyKey : null;
    let replayed = false;
    const requested = typeof input.websiteId === 'string' ? input.websiteId : undefined;
    // The tool declares its transaction mode (define-tool.ts); readOnlyHint is only a hint for clients.
    const mode = def.transaction ?? 'one';
    const direct = mode !== 'one';
    const write = mode !== 'none';
    const afterCommit: Array<() => Promise<void>> = [];
    // The other websites the call is authorized on (a merge target): stored with a keyed call's
    // answer, and authorized again before it is replayed.
    const targets = new Set<string>();
    const run = async (tx: Db, commitLine?: CommitLine) => {
      // A grouped write that runs again (src/db/group-commit.ts) starts over.
      afterCommit.length = 0;
      targets.clear();
      replayed = false;
      // A keyed call meets the gate's conditions on its input only if it runs (below).
      const { website, role } = await authorize(
        tx,
        caller,
        def,
        requested,
        deps.caches.gate,
        key === null ? input : undefined,
      );
      websiteId = website.id;
      const shared = {
        now,
        actor: { userId: caller.creatorId, companyId: caller.companyId, connectionId: caller.connectionId },
        services: deps.services,
        progress,
        afterCommit: (task: () => Promise<void>) => afterCommit.push(task),
        website,
        role,
        caller,
        authorizeWebsite: async (other: Db, id: string) => {
          const { website: target } = await authorize(other, caller, def, id);
          targets.add(target.id);
          return target;
        },
        commitLine,
      };
      // The context is typed by the declared mode: only a 'one' tool receives `tx`, its transaction.
      const go = () =>
        def.transaction === 'none' || def.transaction === 'own'
          ? def.run({ ...shared, db: tx }, input)
          : def.run({ ...shared, tx }, input);
      const work = () => {
        if (!def.cacheable) return go();
        const cacheKey = [
          def.name,
          website.id,
          caller.creatorId,
          caller.reach,
          caller.websiteId,
          JSON.stringify(input),
        ].join('\u0000');
        return deps.caches.reads.get(cacheKey, go, caller.cacheVersion);
      };
      if (key === null) return work();
      // After the gate, so a replay is answered only to a caller still allowed to make the call; in
      // the call's transaction when it has one, so claim, effect and answer commit together.
      const once = await runOnce(
        tx,
        { connectionId: caller.connectionId, key, tool: def.name, input, websiteId: website.id },
        { clock: deps.services.clock, inTransaction: !direct, targets: () => [...targets] },
        async () => {
          await admitInput(tx, caller, def, input);
          return work();
        },
      );
      if (once.replayed) {
        // Every other website the first call touched is checked as it is now, like its own was: each
        // it was authorized on (a merge target) under the tool's rule, and the one it created.
        for (const id of once.targets) await authorize(tx, caller, def, id);
        await assertCreatedSiteStands(tx, caller.companyId, def, input, once.data);
      }
      replayed = once.replayed;
      return once.data;
    };
    const allowed = (data: unknown) =>
      replayed
        ? entry('allowed', REPLAY_SUMMARY)
        : entry('allowed', def.activity(input, data), undefined, def.credits?.(data) ?? 0);
    let data: unknown;
    if (!direct) {
      // A write and its Activity line commit together, in its workspace's next group.
      data = await deps.writeGroups(caller.companyId, async (tx) => {
        const value = await run(tx);
        return { value, line: allowed(value) };
      });
      faultPoint('after-write-commit');
    } else if (write) {
      // Tools that commit in transactions of their own write the line in their committing one.
      const atCommit = lineAtCommit(deps.activity, allowed);
      data = await run(deps.services.db, atCommit.commitLine);
      faultPoint('after-write-commit');
      await atCommit.settle(deps.services.db, data).catch((err) => {
        deps.services.log.error({ err, requestId }, 'activity write failed');
      });
    } else {
      data = await run(deps.services.db);
      deps.activity.record(allowed(data));
    }
    // Work that must only see committed rows (mail delivery) starts now, without delaying the answer.
    for (const task of afterCommit) {
      void task().catch((err) => deps.services.log.error({ err, requestId }, 'after-commit task failed'));
    }
    observe('allowed');
    return okResult(data);
  } catch (err) {
    if (err instanceof Refusal) {
      line('denied', `${tool?.def.name ?? 'unknown tool'} refused: ${err.code}`, err.code);
      return refusalResult(err);
    }
    deps.services.log.error({ err, requestId, tool: name }, 'tool call failed');
    line('failed', `${tool?.def.name ?? 'unknown tool'} failed (request ${requestId})`);
    return failureResult(requestId);
  }
}

function parseInput(tool: CompiledTool, args: unknown): Record<string, unknown> {
  // What no schema can store (NUL, lone surrogates, absurd nesting, __proto__) is refused first, the
  // same for every tool (R-SEC-2).
  const unstorable = unstorableInput(args);
  if (unstorable) {
    throw invalidInput(
      `Invalid input for ${tool.def.name}: ${unstorable}.`,
      'Nothing was changed. Remove the character or flatten the value and call again.',
    );
  }
  const r = tool.input.safeParse(args ?? {});
  if (r.success) return r.data as Record<string, unknown>;
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
  throw invalidInput(
    `Invalid input for ${tool.def.name}: ${issues.join('; ')}`,
    'Nothing was changed. Check the tool’s input schema.',
  );
}
