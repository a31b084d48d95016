// Storage of the development identity provider in Sitegate's own database (R-AUTH-4): an
// oidc-provider adapter over `oidc_models` (registrations, grants, sessions, codes, tokens) and the
// signing and cookie keys in `idp_keys`, created once. A restart therefore keeps every registered
// client and its sign-in, and any process sharing DATABASE_URL can name a client by `client_name`.
import { randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { type JWK, exportJWK, generateKeyPair } from 'jose';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { idpKeys, oidcModels } from '../../db/schema.js';

export type IdpKeys = { jwks: { keys: JWK[] }; cookieKeys: string[] };

async function freshKeys(): Promise<IdpKeys> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    jwks: { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

/**
 * The keys of this issuer's first start, or new ones stored now. Two processes starting at once both
 * insert with ON CONFLICT DO NOTHING and then read the one row that won.
 */
export async function loadOrCreateKeys(db: Db, issuer: string): Promise<IdpKeys> {
  const made = await freshKeys();
  await db
    .insert(idpKeys)
    .values({ issuer, jwks: made.jwks, cookieKeys: made.cookieKeys })
    .onConflictDoNothing();
  const [row] = await db.select().from(idpKeys).where(eq(idpKeys.issuer, issuer));
  return { jwks: row!.jwks as { keys: JWK[] }, cookieKeys: row!.cookieKeys };
}

/** oidc-provider's storage contract (one instance per model name) on `oidc_models`. */
export function drizzleAdapter(db: Db, clock: () => Date = () => new Date()) {
  return (model: string): Adapter => {
    const key = (id: string) => and(eq(oidcModels.model, model), eq(oidcModels.id, id));
    const live = (row: typeof oidcModels.$inferSelect | undefined): AdapterPayload | undefined => {
      if (!row || (row.expiresAt && row.expiresAt <= clock())) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    };
    const findBy = async (where: ReturnType<typeof and>) => {
      const [row] = await db.select().from(oidcModels).where(where).limit(1);
      return live(row);
    };
    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          model,
          id,
          payload: payload as Record<string, unknown>,
          grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
          userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          expiresAt: expiresIn ? new Date(clock().getTime() + expiresIn * 1000) : null,
        };
        await db
          .insert(oidcModels)
          .values({ ...values, createdAt: clock() })
          .onConflictDoUpdate({
            target: [oidcModels.model, oidcModels.id],
            set: { ...values, consumedAt: null },
          });
        // A grant is a person letting the client in: from then on the registration is in use and the
        // purge of never-used registrations leaves it alone.
        if (model === 'Grant' && typeof payload.clientId === 'string') {
          await db
            .update(oidcModels)
            .set({ usedAt: clock() })
            .where(
              and(
                eq(oidcModels.model, 'Client'),
                eq(oidcModels.id, payload.clientId),
                isNull(oidcModels.usedAt),
              ),
            );
        }
      },
      find: (id) => findBy(key(id)!),
      findByUid: (uid) => findBy(and(eq(oidcModels.model, model), eq(oidcModels.uid, uid))!),
      findByUserCode: (code) => findBy(and(eq(oidcModels.model, model), eq(oidcModels.userCode, code))!),
      async consume(id) {
        await db.update(oidcModels).set({ consumedAt: clock() }).where(key(id));
      },
      async destroy(id) {
        await db.delete(oidcModels).where(key(id));
      },
      async revokeByGrantId(grantId) {
        await db.delete(oidcModels).where(eq(oidcModels.grantId, grantId));
      },
    };
  };
}

/** Background job: rows past their expiry are garbage. */
export async function purgeIdpRows(db: Db, now: Date): Promise<void> {
  await db.delete(oidcModels).where(and(isNotNull(oidcModels.expiresAt), lt(oidcModels.expiresAt, now)));
}

/** How long a dynamic registration may wait for its first use before it is purged. */
export const UNUSED_CLIENT_DAYS = 30;

/**
 * Background job: dynamic registrations (RFC 7591) no person ever granted access within
 * UNUSED_CLIENT_DAYS are removed. Anyone may register, so without this they would pile up.
 */
export async function purgeUnusedClients(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - UNUSED_CLIENT_DAYS * 86_400_000);
  await db
    .delete(oidcModels)
    .where(and(eq(oidcModels.model, 'Client'), isNull(oidcModels.usedAt), lt(oidcModels.createdAt, cutoff)));
}

/** How many client registrations are stored (the identity provider caps their total). */
export async function registeredClients(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(oidcModels).where(eq(oidcModels.model, 'Client'));
  return row?.n ?? 0;
}

/**
 * The `client_name` a client registered with the development identity provider, when `issuer` is
 * that provider (its rows live in this database); null for any other issuer or unknown client.
 */
export async function registeredClientName(db: Db, issuer: string, clientId: string): Promise<string | null> {
  const [row] = await db
    .select({ payload: oidcModels.payload })
    .from(oidcModels)
    .innerJoin(idpKeys, eq(idpKeys.issuer, issuer))
    .where(and(eq(oidcModels.model, 'Client'), eq(oidcModels.id, clientId)))
    .limit(1);
  const name = row?.payload.client_name;
  return typeof name === 'string' && name.trim() ? name.trim().slice(0, 80) : null;
}
