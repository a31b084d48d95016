// One Activity line for an action a person took in the app (no connection): what was done, in a
// sentence without personal data, in the action's own transaction.
import type { SiteCtx } from '../context.js';
import { insertActivity } from './recorder.js';

export function recordOwnerAction(ctx: SiteCtx, tool: string, summary: string): Promise<void> {
  return insertActivity(ctx.tx, [
    {
      companyId: ctx.website.companyId,
      websiteId: ctx.website.id,
      connectionId: null,
      tool,
      outcome: 'allowed',
      summary,
      createdAt: ctx.now,
    },
  ]);
}
