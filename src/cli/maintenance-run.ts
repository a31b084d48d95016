// What `sitegate migrate`, `backup` and `restore` do (R-OPS-2, R-OPS-3); loaded when one runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { codeMigrations, schemaStatus } from '../db/migrator.js';
import { Refusal } from '../kernel/errors.js';
import { type Manifest, restoreEmbedded } from '../ops/backup.js';
import { controlAlive } from '../ops/control.js';
import { executeOp, openForCommand } from './operator.js';
import { ExitError } from './output.js';
import { plural } from '../kernel/plural.js';

const out = (s: string) => process.stdout.write(`${s}\n`);

async function refuseWhileServing(dataDir: string, what: string) {
  if (await controlAlive(dataDir))
    throw new ExitError(
      `A Sitegate server is running on ${path.resolve(dataDir)}: stop it before ${what}.`,
      2,
    );
}

export async function migrate(o: { dryRun?: boolean }) {
  const config = loadConfig();
  const where = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `the embedded database in ${path.resolve(config.dataDir)}`;
  if (!config.databaseUrl) {
    await refuseWhileServing(config.dataDir, 'migrating');
    if (o.dryRun && !existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) {
      const all = codeMigrations();
      out(`No database yet in ${where}; these ${plural(all.length, 'migration')} would create it:`);
      for (const m of all) out(`  ${m.tag} (${m.statements} statements)`);
      return;
    }
  }
  const database = await openForCommand(config, where);
  try {
    const s = await schemaStatus(database.db);
    const current = codeMigrations()
      .filter((m) => s.latest !== null && m.when <= s.latest)
      .at(-1)?.tag;
    if (s.newer)
      throw new ExitError(
        `${where} has migrations newer than this version of Sitegate knows (it was migrated by a later release). Nothing was changed.`,
        2,
      );
    if (database.created) {
      out(`Created ${where} with ${plural(codeMigrations().length, 'migration')}; current: ${current}.`);
      return;
    }
    if (!s.pending.length) {
      out(`Nothing to apply: ${where} is current (${current ?? 'no migrations'}).`);
      return;
    }
    if (o.dryRun) {
      out(`${plural(s.pending.length, 'migration')} pending on ${where}:`);
      for (const m of s.pending) out(`  ${m.tag} (${m.statements} statements)`);
      return;
    }
    await database.migrate();
    out(
      `Applied ${plural(s.pending.length, 'migration')} to ${where}: ${s.pending.map((m) => m.tag).join(', ')}.`,
    );
  } finally {
    await database.close();
  }
}

export async function backup(o: { out: string }) {
  const m = (await executeOp('backup', { out: path.resolve(o.out) })) as Manifest;
  out(
    `Backup written to ${path.resolve(o.out)}: database ${(m.database.bytes / 1_048_576).toFixed(1)} MB (schema ${m.schema}), ${plural(m.blobs, 'blob')}${m.secrets.length ? `, ${m.secrets.join(', ')}` : ''}.`,
  );
  out('It holds secrets (the delegation key) and personal data: store it like the data folder (0700).');
}

export async function restore(o: { from: string }) {
  const config = loadConfig();
  if (config.databaseUrl)
    throw new ExitError(
      'DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operating.md, Backups).',
      1,
    );
  await refuseWhileServing(config.dataDir, 'restoring');
  try {
    const m = await restoreEmbedded(o.from, config.dataDir);
    out(
      `Restored the backup of ${m.createdAt} (schema ${m.schema}, ${plural(m.blobs, 'blob')}) into ${path.resolve(config.dataDir)}.`,
    );
    out('Start the service with `sitegate serve`; it refuses a schema newer than its code.');
  } catch (err) {
    if (err instanceof Refusal) throw new ExitError(err.message, 1);
    throw err;
  }
}
