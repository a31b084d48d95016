// `sitegate … | head` (the reader closes the pipe before the command has written everything): the
// command ends quietly with 0 instead of dying on EPIPE with a stack trace.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sitegate } from '../helpers/process.js';

it('a reader that closes the pipe early ends the command quietly', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-pipe-'));
  const running = sitegate(['migrate', '--dry-run'], { env: { DATA_DIR: dataDir, DATABASE_URL: '' } });
  running.child.stdout!.destroy(); // the reader is gone before the first line
  const exit = await running.done;
  expect(exit.err).not.toContain('EPIPE');
  expect(exit.code, exit.err).toBe(0);
});
