// Further `sitegate` commands; each area adds its own (idp, pair, tools, call, admin…).
import type { Command } from 'commander';
import { addAdmin } from './admin.js';
import { idpCommand } from './idp.js';
import { addMaintenance } from './maintenance.js';

export type AddCommand = (program: Command) => void;

// The client commands' libraries (the MCP client, terminal prompts) load when one of them runs, so
// `sitegate serve` does not hold them (docs/performance.md).
const pair = () => import('./pair.js');
const remote = () => import('./remote.js');

/** Runs a command and turns its result (or its error's message) into the process exit code. */
const run =
  <A extends unknown[]>(fn: (...args: A) => Promise<number>) =>
  async (...args: A) => {
    try {
      process.exitCode = await fn(...args);
    } catch (e) {
      process.stderr.write(`${(e as Error).message}\n`);
      process.exitCode = 1;
    }
  };

const addClientCommands: AddCommand = (program) => {
  program
    .command('pair')
    .description('Connect this terminal to a Sitegate server by device code (the owner approves).')
    .requiredOption('--url <base>', 'the server, e.g. http://127.0.0.1:8787')
    .option('--scopes <list>', 'comma-separated scopes to request (site:read,content:write)')
    .option('--name <name>', 'the name the owner sees', 'sitegate CLI')
    .action(
      run(async (opts: { url: string; scopes?: string; name?: string }) => (await pair()).pairCommand(opts)),
    );
  program
    .command('tools')
    .description('List the tools this connection can use.')
    .option('--url <base>', 'server (default: the last paired one)')
    .action(run(async (opts: { url?: string }) => (await remote()).toolsCommand(opts)));
  program
    .command('call')
    .description('Call a tool and print its result; exits 1 when the result is ok:false.')
    .argument('<tool>', 'tool name, e.g. list_pages')
    .option('--json <object>', 'arguments as a JSON object', '{}')
    .option('--url <base>', 'server (default: the last paired one)')
    .action(
      run(async (tool: string, opts: { url?: string; json?: string }) =>
        (await remote()).callCommand(tool, opts),
      ),
    );
  program
    .command('whoami')
    .description('Show the paired server, scopes, reach and sites.')
    .option('--url <base>', 'server (default: the last paired one)')
    .action(run(async (opts: { url?: string }) => (await remote()).whoamiCommand(opts)));
  program
    .command('logout')
    .description('Forget the stored token; with --revoke, end its connection on the server first.')
    .option('--url <base>', 'server (default: the last paired one)')
    .option('--revoke', 'revoke the connection on the server, then forget the token')
    .action(run(async (opts: { url?: string; revoke?: boolean }) => (await remote()).logoutCommand(opts)));
};

const addIdp: AddCommand = (program) => {
  program
    .command('idp')
    .description(
      'Run the development OAuth identity provider on 127.0.0.1:IDP_PORT (needs DATABASE_URL to share users).',
    )
    .action(() => idpCommand());
};

export const COMMANDS: AddCommand[] = [addClientCommands, addIdp, addAdmin, addMaintenance];
