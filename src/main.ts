// Process entry: the `sitegate` command line (serve; other commands are added beside it).
import { Command } from 'commander';
import { ENV_HELP } from './config.js';
import { COMMANDS } from './cli/commands.js';

// `sitegate activity | head` closes the pipe early: the reader has what it wanted, so that is an
// ordinary end, not a crash with a stack trace. A server that loses its stdout still fails loudly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' && process.argv[2] !== 'serve') process.exit(0);
  throw err;
});

/** The longest variable's name sets the column of the help's descriptions. */
const ENV_WIDTH = Math.max(...Object.keys(ENV_HELP).map((k) => k.length));

const program = new Command()
  .name('sitegate')
  .description('The MCP endpoint of your website builder, and the tools around it.')
  .showHelpAfterError();

program
  .command('serve')
  .description('Run the service (HTTP on HOST:PORT): /api/mcp and the owner pages.')
  .option('--demo', 'seed the demo workspace on first start and print how to connect')
  .option('--demo-out <file>', 'with --demo, also write the demo details as JSON to this file')
  .option('--idp', 'also run the development OAuth identity provider on 127.0.0.1:IDP_PORT')
  .option('--migrate', 'apply pending migrations before serving (needed when NODE_ENV=production)')
  .addHelpText(
    'after',
    `\nEnvironment:\n${Object.entries(ENV_HELP)
      .map(([k, v]) => `  ${k.padEnd(ENV_WIDTH)} ${v}`)
      .join('\n')}\n`,
  )
  // Loaded on use, so client commands (pair, tools, call) start without the server's dependencies.
  .action(async (opts: { demo?: boolean; demoOut?: string; idp?: boolean; migrate?: boolean }) => {
    try {
      await (await import('./cli/serve.js')).serveCommand(opts);
    } catch (err) {
      // A refusal to start (newer schema, pending migrations, port taken) is a message, not a stack.
      process.stderr.write(`sitegate serve: ${(err as Error).message}\n`);
      process.exit(1);
    }
  });

for (const add of COMMANDS) add(program);

await program.parseAsync(process.argv);
