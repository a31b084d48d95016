// `sitegate admin`: the operator's commands (R-OPS-1). Passwords are asked on the
// terminal (hidden) or read from standard input with --password-stdin, never taken from argv, where
// `ps` and shell history would show them.
import type { Command } from 'commander';
import { ExitError, action, print } from './output.js';

/** The database code loads only when a command runs. */
const executeOp = async (op: string, args: unknown) => (await import('./operator.js')).executeOp(op, args);

const EXIT_CODES = `
Exit codes: 0 done; 1 refused or failed (the message says why); 2 the database is not ready
(pending migrations: run \`sitegate migrate\`; newer schema; unreachable).
Where: DATABASE_URL, or the embedded database in DATA_DIR — through the running server when one
is serving it.`;

async function readPassword(email: string, fromStdin?: boolean): Promise<string> {
  if (fromStdin) {
    let input = '';
    for await (const chunk of process.stdin) {
      input += chunk;
      if (input.length > 4096) throw new ExitError('The password on standard input is too long.', 1);
    }
    return input.split(/\r?\n/)[0] ?? '';
  }
  if (!process.stdin.isTTY)
    throw new ExitError('No terminal to ask for the password on: pipe it in with --password-stdin.', 1);
  const { password, isCancel } = await import('@clack/prompts');
  const first = await password({ message: `Password for ${email} (10 characters or more)` });
  if (isCancel(first)) throw new ExitError('Cancelled.', 1);
  const again = await password({ message: 'The same password again' });
  if (isCancel(again) || again !== first)
    throw new ExitError('The passwords differ; nothing was created.', 1);
  return first;
}

const int = (v: string) => {
  if (!/^\d+$/.test(v)) throw new ExitError(`${v} is not a whole number.`, 1);
  return Number(v);
};

export function addAdmin(program: Command): void {
  const admin = program
    .command('admin')
    .description('Operator commands: owners, workspaces, websites, connections, plans, Activity, retention.')
    .addHelpText('after', EXIT_CODES);

  admin
    .command('create-owner')
    .description('Create a person who can sign in and own workspaces (the first owner, or later ones).')
    .requiredOption('--email <email>', 'their sign-in address')
    .requiredOption('--name <name>', 'their name as shown on the pages')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .option('--json', 'print JSON')
    .action(
      action(async (o: { email: string; name: string; passwordStdin?: boolean; json?: boolean }) => {
        const password = await readPassword(o.email, o.passwordStdin);
        print(await executeOp('owner.create', { email: o.email, name: o.name, password }), o.json);
      }),
    );

  admin
    .command('create-workspace')
    .description('Create a workspace (company) with its plan and site limit, owned by an existing owner.')
    .requiredOption('--name <name>', 'the business name')
    .requiredOption('--owner <email>', 'the owner (see create-owner)')
    .option('--plan <plan>', 'free | starter | pro | agency', 'free')
    .option('--site-limit <n>', 'how many websites the plan allows', '1')
    .option('--credits <n>', 'image-generation credits to start with', '0')
    .option('--json', 'print JSON')
    .action(
      action(
        async (o: {
          name: string;
          owner: string;
          plan: string;
          siteLimit: string;
          credits: string;
          json?: boolean;
        }) => {
          print(
            await executeOp('workspace.create', {
              name: o.name,
              owner: o.owner,
              plan: o.plan,
              siteLimit: int(o.siteLimit),
              credits: int(o.credits),
            }),
            o.json,
          );
        },
      ),
    );

  admin
    .command('set-plan')
    .description("Change a workspace's plan and/or site limit (deleted sites do not count against it).")
    .requiredOption('--workspace <id>', 'the workspace (see list-workspaces)')
    .option('--plan <plan>', 'free | starter | pro | agency')
    .option('--site-limit <n>', 'how many websites the plan allows')
    .option('--json', 'print JSON')
    .action(
      action(async (o: { workspace: string; plan?: string; siteLimit?: string; json?: boolean }) => {
        print(
          await executeOp('workspace.set-plan', {
            companyId: o.workspace,
            ...(o.plan !== undefined ? { plan: o.plan } : {}),
            ...(o.siteLimit !== undefined ? { siteLimit: int(o.siteLimit) } : {}),
          }),
          o.json,
        );
      }),
    );

  admin
    .command('create-website')
    .description("Create an empty draft website in a workspace, owned by the workspace's owner.")
    .requiredOption('--workspace <id>', 'the workspace id (co_…; see list-workspaces)')
    .requiredOption('--name <name>', 'the website name')
    .option('--owner <email>', 'which owner, when the workspace has several')
    .option('--json', 'print JSON')
    .action(
      action(async (o: { workspace: string; name: string; owner?: string; json?: boolean }) => {
        print(
          await executeOp('website.create', { companyId: o.workspace, name: o.name, owner: o.owner }),
          o.json,
        );
      }),
    );

  admin
    .command('list-workspaces')
    .description('Workspaces with their plan, site limit and number of websites.')
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean }) => print(await executeOp('workspace.list', {}), o.json)));

  admin
    .command('list-websites')
    .description('Websites, optionally of one workspace.')
    .option('--workspace <id>', 'only this workspace')
    .option('--json', 'print JSON')
    .action(
      action(async (o: { workspace?: string; json?: boolean }) =>
        print(await executeOp('website.list', { companyId: o.workspace }), o.json),
      ),
    );

  const conn = admin.command('connections').description('List, revoke and rotate connections.');
  conn
    .command('list')
    .description('Live connections (token prefix only, never the token).')
    .option('--workspace <id>', 'only this workspace')
    .option('--all', 'include revoked connections')
    .option('--json', 'print JSON')
    .action(
      action(async (o: { workspace?: string; all?: boolean; json?: boolean }) =>
        print(
          await executeOp('connection.list', { companyId: o.workspace, includeRevoked: Boolean(o.all) }),
          o.json,
        ),
      ),
    );
  conn
    .command('revoke')
    .description('Revoke a connection: its next call is refused.')
    .argument('<id>', 'connection id (conn_…)')
    .option('--json', 'print JSON')
    .action(
      action(async (id: string, o: { json?: boolean }) =>
        print(await executeOp('connection.revoke', { id }), o.json),
      ),
    );
  conn
    .command('rotate')
    .description('Give a connection a new token (printed once); the old token stops working at once.')
    .argument('<id>', 'connection id (conn_…)')
    .option('--json', 'print JSON')
    .action(
      action(async (id: string, o: { json?: boolean }) =>
        print(await executeOp('connection.rotate', { id }), o.json),
      ),
    );

  admin
    .command('plans')
    .description('Reviewed plans still waiting (pending or approved, not expired).')
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean }) => print(await executeOp('plan.list', {}), o.json)));

  admin
    .command('activity')
    .description('Recent Activity lines, newest first (no personal data by construction).')
    .option('--workspace <id>', 'only this workspace')
    .option('--connection <id>', 'only this connection')
    .option('--outcome <outcome>', 'allowed | denied | failed')
    .option('--limit <n>', 'how many lines (at most 1000)', '50')
    .option('--json', 'print JSON')
    .action(
      action(
        async (o: {
          workspace?: string;
          connection?: string;
          outcome?: string;
          limit: string;
          json?: boolean;
        }) =>
          print(
            await executeOp('activity.list', {
              companyId: o.workspace,
              connectionId: o.connection,
              outcome: o.outcome,
              limit: int(o.limit),
            }),
            o.json,
          ),
      ),
    );

  admin
    .command('retention')
    .description('Run the clean-ups now: Activity past 90 days, expired sessions, plans and pairings.')
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean }) => print(await executeOp('retention.run', {}), o.json)));
}
