// A signed-in person's action on one website, in one transaction: the gate decides first
// (src/gate/person.ts, live facts, never cached), then the domain function runs with a SiteCtx whose
// actor is the person (no connection). The console's routes call every action through here.
// Work the action leaves for after its commit (`ctx.afterCommit`, e.g. delivering the email it queued)
// runs once the transaction committed, never for an attempt that was rolled back or retried.
import { type PersonAction, type PersonSite, authorizePerson } from '../gate/person.js';
import { type Services, type SiteCtx, noProgress } from './context.js';
import { transaction, workspaceOf } from '../db/transactions.js';

export type { PersonSite };

export async function asPerson<T>(
  services: Services,
  userId: string,
  action: PersonAction,
  websiteId: string,
  work: (ctx: SiteCtx, site: PersonSite) => Promise<T>,
): Promise<T> {
  let after: Array<() => Promise<void>> = [];
  const result = await transaction(services.db, workspaceOf(websiteId), async (tx) => {
    after = [];
    const { website, role } = await authorizePerson(tx, { userId }, action, websiteId);
    const ctx: SiteCtx = {
      tx,
      now: services.clock(),
      actor: { userId, companyId: website.companyId, connectionId: null },
      services,
      progress: noProgress,
      afterCommit: (task) => after.push(task),
      website: { id: website.id, companyId: website.companyId },
      role,
    };
    return work(ctx, website);
  });
  for (const task of after) {
    // The change is committed: a task that fails (mail that could not leave now) is retried by its own
    // machinery (the outbox), not reported as a failed action.
    await task().catch((err) => services.log.warn({ err }, 'after-commit task failed'));
  }
  return result;
}
