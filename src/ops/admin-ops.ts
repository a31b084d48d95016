// The operator commands as data (R-OPS-1, R-OPS-3): each has a zod schema for its options and
// a function over the database. `sitegate admin …` runs them against the database directly, or — when
// an embedded instance is serving DATA_DIR — inside that process through its control socket.
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import {
  PLANS,
  createOwner,
  createWebsite,
  createWorkspace,
  setWorkspacePlan,
  listConnectionsForOperator,
  listPendingPlans,
  listWebsites,
  listWorkspaces,
  recentActivity,
  revokeConnectionAsOperator,
  rotateConnection,
} from '../domain/admin/operator.js';
import { invalidInput } from '../kernel/errors.js';
import { backupEmbedded } from './backup.js';
import { RETENTION } from './retention.js';

export type OpContext = {
  database: Database;
  config: Pick<Config, 'dataDir' | 'analyticsRetentionDays'>;
  now: Date;
};
type Op<S extends z.ZodType> = { args: S; run: (ctx: OpContext, args: z.infer<S>) => Promise<unknown> };
const op = <S extends z.ZodType>(args: S, run: Op<S>['run']): Op<S> => ({ args, run });

const Id = z.string().min(3).max(64);

const ADMIN_OPS = {
  'owner.create': op(
    z.object({ email: z.string().max(256), name: z.string().max(200), password: z.string().max(256) }),
    (c, a) => createOwner(c.database.db, a),
  ),
  'workspace.create': op(
    z.object({
      name: z.string().max(200),
      owner: z.string().max(256),
      plan: z.enum(PLANS),
      siteLimit: z.number().int(),
      credits: z.number().int().min(0).max(1_000_000).optional(),
    }),
    (c, a) => createWorkspace(c.database.db, a),
  ),
  'workspace.set-plan': op(
    z.object({ companyId: Id, plan: z.enum(PLANS).optional(), siteLimit: z.number().int().optional() }),
    (c, a) => setWorkspacePlan(c.database.db, a),
  ),
  'workspace.list': op(z.object({}), (c) => listWorkspaces(c.database.db)),
  'website.create': op(
    z.object({ companyId: Id, name: z.string().max(200), owner: z.string().max(256).optional() }),
    (c, a) => createWebsite(c.database.db, a),
  ),
  'website.list': op(z.object({ companyId: Id.optional() }), (c, a) =>
    listWebsites(c.database.db, a.companyId),
  ),
  'connection.list': op(
    z.object({ companyId: Id.optional(), includeRevoked: z.boolean().optional() }),
    (c, a) => listConnectionsForOperator(c.database.db, a),
  ),
  'connection.revoke': op(z.object({ id: Id }), (c, a) =>
    revokeConnectionAsOperator(c.database.db, a.id, c.now),
  ),
  'connection.rotate': op(z.object({ id: Id }), (c, a) => rotateConnection(c.database.db, a.id)),
  'plan.list': op(z.object({}), (c) => listPendingPlans(c.database.db, c.now)),
  'activity.list': op(
    z.object({
      companyId: Id.optional(),
      connectionId: Id.optional(),
      outcome: z.enum(['allowed', 'denied', 'failed']).optional(),
      limit: z.number().int().min(1).max(1000),
    }),
    (c, a) => recentActivity(c.database.db, a),
  ),
  'retention.run': op(z.object({}), async (c) => {
    const out: Record<string, number | null> = {};
    // Activity, plans and analytics report how many rows went; the others only that they ran.
    for (const r of RETENTION) {
      const n = await r.run(c.database.db, c.now, c.config);
      out[r.name] = typeof n === 'number' ? n : null;
    }
    return out;
  }),
  backup: op(z.object({ out: z.string().min(1).max(4096) }), (c, a) =>
    backupEmbedded(c.database, c.config.dataDir, a.out),
  ),
} as const;

export async function runOp(name: string, ctx: OpContext, rawArgs: unknown): Promise<unknown> {
  const o = (ADMIN_OPS as Record<string, Op<z.ZodType>>)[name];
  if (!o) throw invalidInput(`Unknown operator command ${name.slice(0, 40)}.`);
  const parsed = o.args.safeParse(rawArgs ?? {});
  if (!parsed.success)
    throw invalidInput(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; '),
    );
  return o.run(ctx, parsed.data);
}
