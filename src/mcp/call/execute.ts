// How a tool call meets the database, one executor per declared mode (src/mcp/define-tool.ts):
// - 'one': the call joins its workspace's next write group (src/db/group-commit.ts): the gate, the work
//   and its Activity line commit together in one transaction shared with the calls queued beside it;
// - 'own': long work that commits in transactions of its own; its line commits in the one that commits
//   its change (src/domain/activity/at-commit.ts), and it runs under the long-work bound instead of the
//   request's (src/db/deadline.ts);
// - 'none': a read on the pool; its line goes in the next Activity batch.
import { asLongWork } from '../../db/deadline.js';
import { lineAtCommit } from '../../domain/activity/at-commit.js';
import type { Caller } from '../../kernel/caller.js';
import { faultPoint } from '../../kernel/fault.js';
import type { CallDeps } from '../call.js';
import type { ToolRun } from './run.js';

export function execute(deps: CallDeps, caller: Caller, mode: 'one' | 'own' | 'none', run: ToolRun) {
  if (mode === 'one') return inWriteGroup(deps, caller, run);
  if (mode === 'own') return inOwnTransactions(deps, run);
  return asRead(deps, run);
}

async function inWriteGroup(deps: CallDeps, caller: Caller, run: ToolRun): Promise<unknown> {
  const data = await deps.writeGroups(caller.companyId, async (tx) => {
    const value = await run.run(tx);
    return { value, line: run.allowedLine(value) };
  });
  faultPoint('after-write-commit');
  return data;
}

function inOwnTransactions(deps: CallDeps, run: ToolRun): Promise<unknown> {
  const { services } = deps;
  const atCommit = lineAtCommit(deps.activity, (data) => run.allowedLine(data));
  return asLongWork(services.config.dbBounds.longWorkTimeoutMs, async () => {
    const data = await run.run(services.db, atCommit.commitLine);
    faultPoint('after-write-commit');
    await atCommit.settle(services.db, data).catch((err) => {
      services.log.error({ err }, 'activity write failed');
    });
    return data;
  });
}

async function asRead(deps: CallDeps, run: ToolRun): Promise<unknown> {
  const data = await run.run(deps.services.db);
  deps.activity.record(run.allowedLine(data));
  return data;
}
