// What an operator may do from `sitegate admin` (R-OPS-1): create the first owner
// and later ones, a workspace with its plan and site limit, a website; list, revoke and rotate
// connections; list pending plans; read Activity. Every refusal is a Refusal with a plain message;
// listings carry ids, names and counts an operator needs, never a token or password.
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { mintToken } from '../../kernel/tokens.js';
import type { Db } from '../../db/client.js';
import { newId } from '../../kernel/ids.js';
import {
  activity,
  companies,
  companyMembers,
  connections,
  pendingActions,
  users,
  websites,
} from '../../db/schema.js';
import { hashPassword } from '../users/passwords.js';
import { checkCompanyName } from '../workspace/create-company.js';
import { insertSite } from '../workspace/create-site.js';
import { siteRoom } from '../../gate/site-limit.js';
import { Refusal, invalidInput } from '../../kernel/errors.js';
import { transaction, workspaces } from '../../db/transactions.js';

const notFound = (what: string) => new Refusal('not_found', `There is no ${what}.`);

export const PLANS = ['free', 'starter', 'pro', 'agency'] as const;
export type Plan = (typeof PLANS)[number];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
/** NIST SP 800-63B: at least 8 characters; a cap keeps scrypt's input bounded. */
const PASSWORD_MIN = 10;

export async function createOwner(db: Db, input: { email: string; name: string; password: string }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidInput('That is not an email address.');
  const name = input.name.replace(/\s+/g, ' ').trim();
  if (name.length < 1 || name.length > 120) throw invalidInput('A name needs 1 to 120 characters.');
  if (input.password.length < PASSWORD_MIN || input.password.length > 256)
    throw invalidInput(`A password needs ${PASSWORD_MIN} to 256 characters.`);
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw new Refusal('conflict', `A user with the email ${email} already exists (${taken.id}).`);
  const id = newId('usr');
  await db.insert(users).values({ id, email, name, passwordHash: await hashPassword(input.password) });
  return { userId: id, email, name };
}

async function userByEmail(db: Db, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!u) throw notFound(`user ${email}`);
  return u;
}

function checkSiteLimit(n: number) {
  if (!Number.isInteger(n) || n < 0 || n > 10_000)
    throw invalidInput('The site limit must be a whole number from 0 to 10000.');
}

/**
 * Changes a workspace's plan and/or site limit (the operator's side of "ask to raise the limit"). A
 * limit below the sites the workspace already has is allowed: nothing is removed, only new sites are
 * refused until it has room again.
 */
export async function setWorkspacePlan(
  db: Db,
  input: { companyId: string; plan?: Plan; siteLimit?: number },
) {
  if (input.plan === undefined && input.siteLimit === undefined)
    throw invalidInput('Name a new plan (--plan), a new site limit (--site-limit), or both.');
  if (input.plan !== undefined && !PLANS.includes(input.plan))
    throw invalidInput(`The plan must be one of ${PLANS.join(', ')}.`);
  if (input.siteLimit !== undefined) checkSiteLimit(input.siteLimit);
  const [row] = await db
    .update(companies)
    .set({
      ...(input.plan !== undefined ? { plan: input.plan } : {}),
      ...(input.siteLimit !== undefined ? { siteLimit: input.siteLimit } : {}),
    })
    .where(eq(companies.id, input.companyId))
    .returning({
      id: companies.id,
      name: companies.name,
      plan: companies.plan,
      siteLimit: companies.siteLimit,
    });
  if (!row) throw notFound(`workspace ${input.companyId}`);
  return { companyId: row.id, name: row.name, plan: row.plan, siteLimit: row.siteLimit };
}

export async function createWorkspace(
  db: Db,
  input: { name: string; owner: string; plan: Plan; siteLimit: number; credits?: number },
) {
  if (!PLANS.includes(input.plan)) throw invalidInput(`The plan must be one of ${PLANS.join(', ')}.`);
  checkSiteLimit(input.siteLimit);
  const owner = await userByEmail(db, input.owner);
  const id = newId('co');
  const name = checkCompanyName(input.name);
  await transaction(db, { none: 'a new workspace: all its rows are new' }, async (tx) => {
    await tx.insert(companies).values({
      id,
      name,
      plan: input.plan,
      siteLimit: input.siteLimit,
      credits: input.credits ?? 0,
    });
    await tx.insert(companyMembers).values({ companyId: id, userId: owner.id, role: 'owner' });
  });
  return { companyId: id, name, plan: input.plan, siteLimit: input.siteLimit, owner: owner.email };
}

/** A website in a workspace, owned by the workspace's owner (or `owner`); the plan's site limit holds. */
export async function createWebsite(db: Db, input: { companyId: string; name: string; owner?: string }) {
  const name = input.name.replace(/\s+/g, ' ').trim();
  if (name.length < 1 || name.length > 120) throw invalidInput('A website name needs 1 to 120 characters.');
  return transaction(db, workspaces(input.companyId), async (tx) => {
    // Lock the workspace row: concurrent creations serialise, so the site limit cannot be exceeded.
    const [company] = await tx
      .select()
      .from(companies)
      .where(eq(companies.id, input.companyId))
      .for('update');
    if (!company) throw notFound(`workspace ${input.companyId}`);
    await siteRoom(tx, company.id, false);
    const owners = await tx
      .select({ id: users.id, email: users.email })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, company.id), eq(companyMembers.role, 'owner')));
    const owner = input.owner ? owners.find((o) => o.email === input.owner!.trim().toLowerCase()) : owners[0];
    if (!owner || (!input.owner && owners.length > 1))
      throw invalidInput(
        input.owner
          ? `${input.owner} is not an owner of this workspace.`
          : 'This workspace has several owners: name one with --owner.',
      );
    const actor = { userId: owner.id, companyId: company.id, connectionId: null };
    const { id } = await insertSite(tx, actor, new Date(), { name });
    return { websiteId: id, name, companyId: company.id, owner: owner.email };
  });
}

export async function listWorkspaces(db: Db) {
  return db
    .select({
      id: companies.id,
      name: companies.name,
      plan: companies.plan,
      siteLimit: companies.siteLimit,
      // Spelled out: inside a select list drizzle would print the outer column unqualified.
      // Deleted sites (restorable for 30 days) do not count against the limit and are not counted here.
      websites: sql<number>`(select count(*)::int from websites w where w.company_id = companies.id and w.deleted_at is null)`,
      createdAt: companies.createdAt,
    })
    .from(companies)
    .orderBy(companies.createdAt);
}

export async function listWebsites(db: Db, companyId?: string) {
  const rows = await db
    .select({
      id: websites.id,
      name: websites.name,
      companyId: websites.companyId,
      publishedRev: websites.publishedRev,
      publishedAt: websites.publishedAt,
      deletedAt: websites.deletedAt,
    })
    .from(websites)
    .where(companyId ? eq(websites.companyId, companyId) : undefined)
    .orderBy(websites.createdAt);
  // publishedAt: when it went live, null while it is not live.
  return rows.map(({ publishedRev, ...r }) => ({
    ...r,
    publishedAt: publishedRev === null ? null : r.publishedAt,
  }));
}

export async function listConnectionsForOperator(
  db: Db,
  f: { companyId?: string; includeRevoked?: boolean },
) {
  const where = [];
  if (f.companyId) where.push(eq(connections.companyId, f.companyId));
  if (!f.includeRevoked) where.push(isNull(connections.revokedAt));
  return db
    .select({
      id: connections.id,
      name: connections.name,
      companyId: connections.companyId,
      websiteId: connections.websiteId,
      reach: connections.reach,
      scopes: connections.scopes,
      kind: connections.clientKind,
      prefix: connections.tokenPrefix,
      createdAt: connections.createdAt,
      lastUsedAt: connections.lastUsedAt,
      revokedAt: connections.revokedAt,
    })
    .from(connections)
    .where(and(...where))
    .orderBy(desc(connections.createdAt));
}

async function liveConnection(db: Db, id: string) {
  const [row] = await db.select().from(connections).where(eq(connections.id, id));
  if (!row) throw notFound(`connection ${id}`);
  if (row.revokedAt) throw new Refusal('conflict', `Connection ${id} was already revoked.`);
  return row;
}

/** Ends a connection at once (the next call with its token is refused: lookups read revoked_at). */
export async function revokeConnectionAsOperator(db: Db, id: string, now: Date) {
  await liveConnection(db, id);
  await db
    .update(connections)
    .set({ revokedAt: now })
    .where(and(eq(connections.id, id), isNull(connections.revokedAt)));
  return { connectionId: id, revokedAt: now };
}

/** A new token for the same connection (same scopes, reach and creator); the old one stops working. */
export async function rotateConnection(db: Db, id: string) {
  const row = await liveConnection(db, id);
  if (row.clientKind === 'oauth')
    throw new Refusal('conflict', 'An OAuth connection has no token to rotate: the client signs in again.');
  const minted = mintToken();
  await db
    .update(connections)
    .set({ tokenHash: minted.hash, tokenPrefix: minted.display })
    .where(eq(connections.id, id));
  return { connectionId: id, token: minted.token, prefix: minted.display };
}

export async function listPendingPlans(db: Db, now: Date) {
  return db
    .select({
      id: pendingActions.id,
      kind: pendingActions.kind,
      websiteId: pendingActions.websiteId,
      connectionId: pendingActions.connectionId,
      status: pendingActions.status,
      createdAt: pendingActions.createdAt,
      expiresAt: pendingActions.expiresAt,
    })
    .from(pendingActions)
    .where(
      and(inArray(pendingActions.status, ['pending', 'approved']), sql`${pendingActions.expiresAt} > ${now}`),
    )
    .orderBy(pendingActions.expiresAt);
}

export async function recentActivity(
  db: Db,
  f: { companyId?: string; connectionId?: string; outcome?: string; limit: number },
) {
  const where = [];
  if (f.companyId) where.push(eq(activity.companyId, f.companyId));
  if (f.connectionId) where.push(eq(activity.connectionId, f.connectionId));
  if (f.outcome) where.push(eq(activity.outcome, f.outcome));
  return db
    .select({
      id: activity.id,
      at: activity.createdAt,
      companyId: activity.companyId,
      connectionId: activity.connectionId,
      tool: activity.tool,
      outcome: activity.outcome,
      code: activity.code,
      summary: activity.summary,
      requestId: activity.requestId,
    })
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.id))
    .limit(Math.min(Math.max(f.limit, 1), 1000));
}
