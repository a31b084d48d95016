// Secrets of the anonymous visitor side (R-VIS-3), kept in the database so every process
// behind a load balancer uses the same ones (R-SCALE-1): the form key that signs the fill-time token
// of the published site's forms, and one random salt per UTC day for visitor hashes. A day's salt is
// deleted once the day is over, after which nobody — not even with the database — can link a stored
// hash back to an address and browser.
import { randomBytes } from 'node:crypto';
import { and, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { visitorKeys } from '../../db/schema.js';

const FORM_KEY = 'form';
const SALT = 'salt:';

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Reads a key, creating it first if absent; two processes racing both get the one that was stored. */
async function keyOf(db: Db, id: string): Promise<string> {
  const [row] = await db
    .insert(visitorKeys)
    .values({ id, secret: randomBytes(32).toString('base64url') })
    // A no-op update makes RETURNING give the existing row on conflict (ON CONFLICT DO NOTHING returns none).
    .onConflictDoUpdate({ target: visitorKeys.id, set: { id: sql`excluded.id` } })
    .returning({ secret: visitorKeys.secret });
  return row!.secret;
}

/** Deletes every salt of a day before `now`'s UTC day (the hourly job and each new day's first use). */
export async function rotateVisitorSalts(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(visitorKeys)
    .where(and(like(visitorKeys.id, `${SALT}%`), lt(visitorKeys.id, `${SALT}${utcDay(now)}`)))
    .returning({ id: visitorKeys.id });
  return gone.length;
}

export type VisitorKeys = {
  formKey(): Promise<string>;
  /** The salt of `day`; the first use of a new day also deletes the salts of earlier days. */
  saltFor(day: string, now: Date): Promise<string>;
};

/**
 * Keys of one process, cached: the form key for good, the salt of the latest day only (an old salt
 * must not outlive its deletion in memory). Salts never change once stored, so the cache is safe.
 */
export function visitorKeyCache(db: Db): VisitorKeys {
  let form: Promise<string> | null = null;
  let latest: { day: string; salt: Promise<string> } | null = null;
  return {
    formKey() {
      form ??= keyOf(db, FORM_KEY).catch((err) => {
        form = null;
        throw err;
      });
      return form;
    },
    async saltFor(day, now) {
      if (latest?.day === day) return latest.salt;
      const salt = keyOf(db, `${SALT}${day}`);
      if (day === utcDay(now)) {
        latest = { day, salt };
        salt.then(() => rotateVisitorSalts(db, now)).catch(() => {});
        salt.catch(() => {
          if (latest?.salt === salt) latest = null;
        });
      }
      return salt;
    },
  };
}

const caches = new WeakMap<Db, VisitorKeys>();

/** The process-wide cache for this database handle (one per Database, never shared across them). */
export function visitorKeysOf(db: Db): VisitorKeys {
  let k = caches.get(db);
  if (!k) {
    k = visitorKeyCache(db);
    caches.set(db, k);
  }
  return k;
}
