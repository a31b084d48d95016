// Schema version (R-OPS-2): which of the committed migrations the database has, which are
// pending, and whether the database is newer than this code. Drizzle's migrator records each applied
// migration in drizzle.__drizzle_migrations as (hash, created_at = the journal's `when`) and applies
// every journal entry newer than the last row; we read the same table the same way.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from './client.js';
import { rowsOf } from './rows.js';
import { plural } from '../kernel/plural.js';

/** Beside this module in src/ and in dist/ alike (`npm run build` copies the folder). */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type Migration = { tag: string; when: number; hash: string; statements: number };

export function codeMigrations(folder = migrationsFolder): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return journal.entries.map((e, i) => ({
    tag: e.tag,
    when: e.when,
    hash: files[i]!.hash,
    statements: files[i]!.sql.filter((s) => s.trim()).length,
  }));
}

export type SchemaStatus = {
  /** Migrations of this code the database has. */
  applied: number;
  /** Migrations of this code the database lacks, oldest first. */
  pending: Migration[];
  /** The database carries migrations this code does not know (a newer release migrated it). */
  newer: boolean;
  /** The newest migration the database has, as its journal timestamp (null: empty database). */
  latest: number | null;
};

export async function schemaStatus(db: Db, code: Migration[] = codeMigrations()): Promise<SchemaStatus> {
  const [table] = rowsOf<{ t: string | null }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`),
  );
  const [last] = table?.t
    ? rowsOf<{ latest: string | number | null }>(
        await db.execute(sql`select max(created_at) as latest from drizzle.__drizzle_migrations`),
      )
    : [];
  const latest = last?.latest == null ? null : Number(last.latest);
  const newestKnown = code.length ? code[code.length - 1]!.when : 0;
  return {
    applied: code.filter((m) => latest !== null && m.when <= latest).length,
    // Exactly what drizzle's migrator would apply: every entry newer than the last recorded one.
    pending: code.filter((m) => latest === null || m.when > latest),
    newer: latest !== null && latest > newestKnown,
    latest,
  };
}

/** The refusal `serve` gives for a database it must not run on (item 2), or null when it may start. */
function startRefusal(s: SchemaStatus, opts: { production: boolean; apply: boolean }): string | null {
  if (s.newer) {
    return (
      'The database schema is newer than this version of Sitegate (it was migrated by a later release). ' +
      'Refusing to start: run the release that migrated it, or restore the backup taken before the upgrade.'
    );
  }
  if (s.pending.length && opts.production && !opts.apply) {
    return (
      `${plural(s.pending.length, 'migration')} pending: ${s.pending.map((m) => m.tag).join(', ')}. ` +
      'In production (NODE_ENV=production) Sitegate does not migrate by itself: run `sitegate migrate` ' +
      '(after a backup), or start with `sitegate serve --migrate`.'
    );
  }
  return null;
}

/**
 * What `serve` does before it listens: refuse a newer database, refuse pending migrations in
 * production unless told to apply them (a fresh embedded database is always initialised), apply
 * them otherwise. Returns the migrations it applied.
 */
export async function ensureSchema(
  database: { db: Db; migrate: () => Promise<void>; created?: boolean },
  opts: { production: boolean; apply: boolean },
): Promise<Migration[]> {
  const before = await schemaStatus(database.db);
  const refusal = startRefusal(before, { ...opts, apply: opts.apply || Boolean(database.created) });
  if (refusal) throw new Error(refusal);
  if (before.pending.length) await database.migrate();
  return before.pending;
}
