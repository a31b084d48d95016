// Runs an operator command (src/ops/admin-ops.ts) where the data is: inside the serving process when
// an embedded instance is running on DATA_DIR (its control socket), else on the database directly.
// Exit codes: 0 done; 1 refused or failed (the message says why); 2 the database is not ready for
// this code (pending migrations, newer schema, unreachable).
import { type Config, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { schemaStatus } from '../db/migrator.js';
import { Refusal } from '../kernel/errors.js';
import { runOp } from '../ops/admin-ops.js';
import { callControl, controlAlive } from '../ops/control.js';
import { ExitError } from './output.js';
import { plural } from '../kernel/plural.js';

/** Opens the database for one command, without migrating; a failure is exit code 2. */
export function openForCommand(config: Config, where = 'the database') {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: false,
    poolSize: 2,
    bounds: config.dbBounds,
  }).catch((err: Error) => {
    throw new ExitError(`Cannot open ${where}: ${err.message}`, 2);
  });
}

export async function executeOp(op: string, args: unknown): Promise<unknown> {
  const config = loadConfig();
  if (!config.databaseUrl && (await controlAlive(config.dataDir))) {
    try {
      return await callControl(config.dataDir, op, args);
    } catch (err) {
      throw new ExitError((err as Error).message, 1);
    }
  }
  const database = await openForCommand(config);
  try {
    const s = await schemaStatus(database.db);
    if (op !== 'backup' && (s.newer || s.pending.length))
      throw new ExitError(
        s.newer
          ? 'The database schema is newer than this version of Sitegate: use the release that migrated it.'
          : `${plural(s.pending.length, 'migration')} pending: run \`sitegate migrate\` first.`,
        2,
      );
    return await runOp(op, { database, config, now: new Date() }, args);
  } catch (err) {
    if (err instanceof Refusal) throw new ExitError(err.message, 1);
    throw err;
  } finally {
    await database.close();
  }
}
