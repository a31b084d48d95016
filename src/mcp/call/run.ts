// One tool's run inside its call: the gate on the live facts, in the call's transaction when it has one
// (R-SURF-3), then `run` with the context its declared mode gives it, through the read cache when the tool
// is cacheable, and once per connection and key when the call is keyed (src/domain/idempotency/). A
// grouped write may run this more than once (src/db/group-commit.ts): each run starts over.
import type { Db } from '../../db/client.js';
import type { CommitLine } from '../../domain/activity/at-commit.js';
import type { Progress } from '../../domain/context.js';
import { runOnce } from '../../domain/idempotency/keys.js';
import { assertCreatedSiteStands } from '../../domain/idempotency/replay.js';
import { admitInput, authorize } from '../../gate/authorize.js';
import type { Caller } from '../../kernel/caller.js';
import type { CallDeps } from '../call.js';
import type { CompiledTool } from '../registry.js';
import type { Admitted } from './admit.js';
import type { CallRecord } from './record.js';

export class ToolRun {
  /** Work that must only see committed rows (mail delivery); started after the commit. */
  readonly afterCommit: Array<() => Promise<void>> = [];
  /** The answer was a keyed call's first answer, given again. */
  replayed = false;
  /**
   * The other websites the call is authorized on (a merge target): stored with a keyed call's answer,
   * and authorized again before it is replayed.
   */
  private readonly targets = new Set<string>();

  constructor(
    private readonly deps: CallDeps,
    private readonly caller: Caller,
    private readonly tool: CompiledTool,
    private readonly call: Admitted,
    private readonly record: CallRecord,
    private readonly progress: Progress,
  ) {}

  /** Runs the tool on `db` (the call's transaction in mode 'one', else the pool). */
  async run(db: Db, commitLine?: CommitLine): Promise<unknown> {
    this.afterCommit.length = 0;
    this.targets.clear();
    this.replayed = false;
    const { def } = this.tool;
    const { input, key } = this.call;
    const requested = typeof input.websiteId === 'string' ? input.websiteId : undefined;
    // A keyed call meets the gate's conditions on its input only if it runs (below).
    const gate = this.deps.caches.gate;
    const { website, role } = await authorize(db, this.caller, def, requested, gate, key ? undefined : input);
    this.record.websiteId = website.id;
    const ctx = {
      now: this.record.now,
      actor: {
        userId: this.caller.creatorId,
        companyId: this.caller.companyId,
        connectionId: this.caller.connectionId,
      },
      services: this.deps.services,
      progress: this.progress,
      afterCommit: (task: () => Promise<void>) => this.afterCommit.push(task),
      website,
      role,
      caller: this.caller,
      authorizeWebsite: async (other: Db, id: string) => {
        const { website: target } = await authorize(other, this.caller, def, id);
        this.targets.add(target.id);
        return target;
      },
      commitLine,
    };
    // The context is typed by the declared mode: only a 'one' tool receives `tx`, its transaction.
    const go = () =>
      def.transaction === 'none' || def.transaction === 'own'
        ? def.run({ ...ctx, db }, input)
        : def.run({ ...ctx, tx: db }, input);
    const work = def.cacheable ? () => this.cached(website.id, go) : go;
    if (!key) return work();
    // After the gate, so a replay is answered only to a caller still allowed to make the call; in the
    // call's transaction when it has one, so claim, effect and answer commit together.
    const once = await runOnce(
      db,
      { connectionId: this.caller.connectionId, key, tool: def.name, input, websiteId: website.id },
      {
        clock: this.deps.services.clock,
        inTransaction: (def.transaction ?? 'one') === 'one',
        targets: () => [...this.targets],
      },
      async () => {
        await admitInput(db, this.caller, def, input);
        return work();
      },
    );
    if (once.replayed) {
      // Every other website the first call touched is checked as it is now, like its own was: each
      // it was authorized on (a merge target) under the tool's rule, and the one it created.
      for (const id of once.targets) await authorize(db, this.caller, def, id);
      await assertCreatedSiteStands(db, this.caller.companyId, def, input, once.data);
    }
    this.replayed = once.replayed;
    return once.data;
  }

  /** The Activity line of the call allowed with `data`. */
  allowedLine(data: unknown) {
    const { def } = this.tool;
    if (this.replayed) return this.record.allowed(null);
    return this.record.allowed(def.activity(this.call.input, data), def.credits?.(data) ?? 0);
  }

  private cached(websiteId: string, go: () => Promise<unknown>) {
    const c = this.caller;
    const key = [
      this.tool.def.name,
      websiteId,
      c.creatorId,
      c.reach,
      c.websiteId,
      JSON.stringify(this.call.input),
    ];
    return this.deps.caches.reads.get(key.join('\u0000'), go, c.cacheVersion);
  }
}
