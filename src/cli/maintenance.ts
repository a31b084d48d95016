// `sitegate migrate`, `sitegate backup`, `sitegate restore` (R-OPS-2, R-OPS-3): the commands;
// their work (src/cli/maintenance-run.ts) loads only when one runs.
import type { Command } from 'commander';
import { action } from './output.js';

const run = () => import('./maintenance-run.js');

export function addMaintenance(program: Command): void {
  program
    .command('migrate')
    .description(
      'Apply the pending database migrations (run it after a backup, before starting a new release).',
    )
    .option('--dry-run', 'list what is pending and change nothing')
    .addHelpText(
      'after',
      '\nExit codes: 0 done (or nothing to do); 1 failed; 2 the database is newer than this code, busy or unreachable.',
    )
    .action(action(async (o: { dryRun?: boolean }) => (await run()).migrate(o)));
  program
    .command('backup')
    .description(
      'Back up the embedded database, blobs and delegation key into a new folder (consistent while serving).',
    )
    .requiredOption('--out <dir>', 'a new or empty folder')
    .addHelpText('after', '\nOn PostgreSQL use pg_dump instead (docs/operating.md, Backups).')
    .action(action(async (o: { out: string }) => (await run()).backup(o)));
  program
    .command('restore')
    .description('Restore a `sitegate backup` folder into an empty DATA_DIR (with the server stopped).')
    .requiredOption('--from <dir>', 'the backup folder')
    .action(action(async (o: { from: string }) => (await run()).restore(o)));
}
