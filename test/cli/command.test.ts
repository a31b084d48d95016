// The `sitegate` command as an executable file, as `npm start` and a service manager run it: its
// shebang (`env -S node` with V8 flags) must start Node with those flags, or the embedded
// demo holds three times the memory on Node 24 (bin/sitegate.mjs says why).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const command = fileURLToPath(new URL('../../bin/sitegate.mjs', import.meta.url));

it('runs as an executable, and Node starts with its V8 flags', async () => {
  // A preloaded module reports the flags Node itself was started with, before the command runs.
  const report = `data:text/javascript,process.stderr.write('execArgv='+JSON.stringify(process.execArgv)+'\\n')`;
  const { stdout, stderr } = await promisify(execFile)(command, ['help'], {
    env: { ...process.env, NODE_OPTIONS: `--import=${report}` },
  });
  expect(stdout).toContain('Usage: sitegate');
  const execArgv = JSON.parse(/execArgv=(.*)/.exec(stderr)?.[1] ?? '[]') as string[];
  expect(execArgv).toEqual(
    expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=16', '--heap-growing-percent=50']),
  );
});
