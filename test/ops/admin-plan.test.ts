// The operator raises (or lowers) a workspace's plan and site limit (`sitegate admin set-plan`, the
// `workspace.set-plan` operator command), and the site_limit_reached refusal names what the product
// offers: deleting a site in the console, or the operator raising the limit. The demo's plan has room
// for a walk through the demo (five more sites).
import { count, eq, isNull, and } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companies, websites } from '../../src/db/schema.js';
import { runOp } from '../../src/ops/admin-ops.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const op = (name: string, args: unknown) =>
  runOp(
    name,
    { database: s.sg.database, config: { dataDir: '', analyticsRetentionDays: 400 }, now: new Date() },
    args,
  );

it('set-plan changes the plan and the limit; create_site follows the new limit', async () => {
  const d = await s.seed();
  const [live] = await db()
    .select({ n: count() })
    .from(websites)
    .where(and(eq(websites.companyId, d.companyId), isNull(websites.deletedAt)));
  const [row] = await db().select().from(companies).where(eq(companies.id, d.companyId));
  // The demo has room for five more sites.
  expect(row!.siteLimit - Number(live!.n)).toBeGreaterThanOrEqual(5);

  await op('workspace.set-plan', { companyId: d.companyId, siteLimit: 2 });
  const full = await s.call(d.tokens.all, 'create_site', {});
  expect(full.error?.code).toBe('site_limit_reached');
  // The hint names what exists: the console's delete, and the operator raising the limit.
  expect(full.error?.hint).toContain('/dashboard/sites/');
  expect(full.error?.hint).toContain('sitegate admin set-plan');
  expect(full.error?.hint).not.toMatch(/upgrade the plan in the app/);

  const out = await op('workspace.set-plan', { companyId: d.companyId, plan: 'agency', siteLimit: 3 });
  expect(out).toMatchObject({ companyId: d.companyId, plan: 'agency', siteLimit: 3 });
  expect((await s.call(d.tokens.all, 'create_site', {})).ok).toBe(true);
});

it('refuses a bad plan, a bad limit, nothing to change and an unknown workspace; nothing changes', async () => {
  const d = await s.seed();
  const [before] = await db().select().from(companies).where(eq(companies.id, d.companyId));
  for (const args of [
    { companyId: d.companyId, plan: 'platinum' },
    { companyId: d.companyId, siteLimit: -1 },
    { companyId: d.companyId, siteLimit: 1.5 },
    { companyId: d.companyId },
  ]) {
    await expect(op('workspace.set-plan', args)).rejects.toMatchObject({ code: 'invalid_input' });
  }
  await expect(op('workspace.set-plan', { companyId: 'co_missing', siteLimit: 5 })).rejects.toMatchObject({
    code: 'not_found',
  });
  const [after] = await db().select().from(companies).where(eq(companies.id, d.companyId));
  expect(after).toEqual(before);
});
