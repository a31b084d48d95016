// A signed-in person's action on one website, in one transaction: the gate decides first
// (src/gate/person.ts, live facts, never cached), then the domain function runs with a SiteCtx whose
// actor is the person (no connection). The console's routes call every action through here.
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
  return transaction(services.db, workspaceOf(websiteId), async (tx) => {
    const { website, role } = await authorizePerson(tx, { userId }, action, websiteId);
    const ctx: SiteCtx = {
      tx,
      now: services.clock(),
      actor: { userId, companyId: website.companyId, connectionId: null },
      services,
      progress: noProgress,
      website: { id: website.id, companyId: website.companyId },
      role,
    };
    return work(ctx, website);
  });
}
