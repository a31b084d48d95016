// Connections (R-SURF-2): created by a site owner only, reaching one website (default) or the
// whole workspace, with scopes ticked from the scope table. Lookup is by token hash only.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { cacheVersionOf } from '../db/versions.js';
import { authorizePerson } from '../gate/person.js';
import { newId } from '../kernel/ids.js';
import { connections } from '../db/schema.js';
import { invalidInput, notFound } from '../kernel/errors.js';
import { type Scope, normaliseScopes } from '../kernel/scopes.js';
import type { Caller, Reach } from '../kernel/caller.js';
import { mintToken, sha256Hex } from '../kernel/tokens.js';

export type ConnectionRow = typeof connections.$inferSelect;

export type CreateConnectionInput = {
  userId: string;
  websiteId: string;
  name: string;
  reach?: Reach;
  scopes?: readonly string[];
  clientKind?: 'api_token' | 'cli' | 'oauth';
  oauth?: { issuer: string; subject: string; clientId: string; email?: string | null };
};

/** Only the website's owner may create a connection; the scopes are normalised (site:read always on). */
export async function createConnection(
  db: Db,
  input: CreateConnectionInput,
): Promise<{ connection: ConnectionRow; token: string | null }> {
  const name = input.name.trim();
  if (!name || name.length > 80) throw invalidInput('A connection needs a name of 1 to 80 characters.');
  // The gate decides for the person and words its refusal: owners only; a stranger learns nothing.
  const { website: site } = await authorizePerson(
    db,
    { userId: input.userId },
    'connections.create',
    input.websiteId,
  );
  const scopes: Scope[] = normaliseScopes(input.scopes ?? ['content:write']);
  const kind = input.clientKind ?? 'api_token';
  const minted = kind === 'oauth' ? null : mintToken();
  const [connection] = await db
    .insert(connections)
    .values({
      id: newId('conn'),
      companyId: site.companyId,
      createdBy: input.userId,
      name,
      reach: input.reach ?? 'website',
      websiteId: input.websiteId,
      scopes,
      clientKind: kind,
      tokenHash: minted?.hash ?? null,
      tokenPrefix: minted?.display ?? null,
      oauthIssuer: input.oauth?.issuer ?? null,
      oauthSubject: input.oauth?.subject ?? null,
      oauthClientId: input.oauth?.clientId ?? null,
      oauthEmail: input.oauth?.email ?? null,
    })
    .returning();
  return { connection: connection!, token: minted?.token ?? null };
}

export async function revokeConnection(
  db: Db,
  userId: string,
  connectionId: string,
  now: Date,
): Promise<void> {
  const [row] = await db.select().from(connections).where(eq(connections.id, connectionId));
  if (!row) throw notFound('connection');
  // Only an owner of the connection's website; to anyone else the gate says it does not exist.
  await authorizePerson(db, { userId }, 'connections.revoke', row.websiteId);
  await db.update(connections).set({ revokedAt: now }).where(eq(connections.id, connectionId));
}

export async function listConnections(db: Db, companyId: string): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(connections)
    .where(eq(connections.companyId, companyId))
    .orderBy(desc(connections.createdAt));
}

function callerOf(row: ConnectionRow, via: Caller['via'], cacheVersion?: string): Caller {
  return {
    ...(cacheVersion === undefined ? {} : { cacheVersion }),
    connectionId: row.id,
    companyId: row.companyId,
    creatorId: row.createdBy,
    reach: row.reach === 'workspace' ? 'workspace' : 'website',
    websiteId: row.websiteId,
    scopes: normaliseScopes(row.scopes),
    clientKind: row.clientKind === 'cli' ? 'cli' : row.clientKind === 'oauth' ? 'oauth' : 'api_token',
    via,
  };
}

/**
 * The caller behind a plaintext API token, or null (unknown or revoked). One indexed lookup by hash,
 * which also reads the workspace's cache version in the same snapshot (src/db/versions.ts).
 */
export async function callerForToken(db: Db, token: string): Promise<Caller | null> {
  const [found] = await db
    .select({ row: connections, version: cacheVersionOf(sql.raw('"connections"."company_id"')) })
    .from(connections)
    .where(and(eq(connections.tokenHash, sha256Hex(token)), isNull(connections.revokedAt)))
    .limit(1);
  return found ? callerOf(found.row, 'token', found.version) : null;
}

/**
 * Revokes the one connection a plaintext API token belongs to, asked by the token itself (the
 * CLI's `logout --revoke`): holding the token is the authority to end it and nothing else. False
 * when the token names no live connection; nothing is written then.
 */
export async function revokeOwnConnection(db: Db, token: string, now: Date): Promise<boolean> {
  const revoked = await db
    .update(connections)
    .set({ revokedAt: now })
    .where(and(eq(connections.tokenHash, sha256Hex(token)), isNull(connections.revokedAt)))
    .returning({ id: connections.id });
  return revoked.length === 1;
}

/** The live connection with this id, or null if revoked or absent (used by OAuth delegations). */
export async function callerForConnectionId(db: Db, id: string): Promise<Caller | null> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, id), isNull(connections.revokedAt)))
    .limit(1);
  return row ? callerOf(row, 'oauth') : null;
}
