// `sitegate serve` started while PostgreSQL does not answer yet (the TCP proxy resets every
// connection at once, as a server that is down or restarting does). Before, it exited within a second with a bare driver
// error. Now it waits and retries, saying on stderr what it waits for (the address, never the
// password), comes up once the database answers, and gives up after DB_START_WAIT_MS with a clear
// message and a non-zero exit; a refusal waiting cannot mend (no such database) ends the wait at once.
// PostgreSQL only, like the other PostgreSQL fault tests (CI's PostgreSQL pass runs it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { waitForDatabase } from '../../src/db/start-wait.js';
import { type Run, sitegate, until } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';
import { type TcpProxy, startTcpProxy } from '../helpers/tcp-proxy.js';
import { backend, newDataDir } from './harness.js';
import { readyz } from './pg-kit.js';

const url = process.env.DATABASE_URL;
const secret = 'not-a-real-password-7f3a';
let store: Awaited<ReturnType<typeof backend>>;
let proxy: TcpProxy;
let dbName = '';

beforeAll(async () => {
  if (!url) return;
  store = await backend();
  const target = new URL(store.databaseUrl!);
  dbName = target.pathname.slice(1);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await store?.drop();
});

/** `serve` through the proxy, with a password in DATABASE_URL (trust authentication ignores it). */
async function serve(waitMs: number) {
  const u = new URL(store.databaseUrl!);
  u.host = proxy.address;
  u.username = 'postgres';
  u.password = secret;
  const port = await freePort();
  const server = sitegate(['serve'], {
    env: {
      PORT: String(port),
      DATA_DIR: newDataDir('pg-start'),
      DATABASE_URL: u.toString(),
      REDIS_URL: '',
      SMTP_URL: '',
      DB_START_WAIT_MS: String(waitMs),
    },
  });
  return { server, base: `http://127.0.0.1:${port}` };
}

const ended = (done: Promise<Run>) =>
  Promise.race([done, new Promise<null>((r) => setTimeout(() => r(null), 120_000).unref())]);

it.runIf(url)(
  'waits for PostgreSQL at start, says what it waits for without the password, and comes up once it answers',
  async () => {
    proxy.refuse();
    const { server, base } = await serve(120_000);
    try {
      const waiting = `Waiting for PostgreSQL at ${proxy.address}/${dbName} (connection reset)`;
      await until(
        () => server.err().includes(waiting),
        900,
        () => server.err(),
      );
      expect(server.child.exitCode).toBeNull();
      proxy.heal();
      await until(
        async () => (await readyz(base)) === 200 || null,
        900,
        () => server.err(),
      );
      expect(server.err()).toContain(`PostgreSQL at ${proxy.address}/${dbName} answers; starting.`);
      expect(server.err() + server.out()).not.toContain(secret);
    } finally {
      server.child.kill('SIGTERM');
      await ended(server.done);
    }
  },
  150_000,
);

it.runIf(url)(
  'gives up after DB_START_WAIT_MS with a clear message and a non-zero exit',
  async () => {
    proxy.refuse();
    const { server } = await serve(1_000);
    const run = await ended(server.done);
    if (!run) server.child.kill('SIGKILL');
    expect(run?.code).toBe(1);
    expect(run?.err).toContain(
      `sitegate serve: PostgreSQL at ${proxy.address}/${dbName} could not be reached within 1 s (connection reset).`,
    );
    expect(run?.err).toContain('DB_START_WAIT_MS');
    expect(run!.err + run!.out).not.toContain(secret);
  },
  150_000,
);

it.runIf(url)('does not wait for what waiting cannot mend: a database that does not exist', async () => {
  const u = new URL(store.databaseUrl!);
  u.pathname = '/sg_no_such_database';
  u.password = secret;
  const database = await openDatabase({ databaseUrl: u.toString(), migrate: false });
  const said: string[] = [];
  try {
    const err = await waitForDatabase(database.db, {
      url: u.toString(),
      waitMs: 60_000,
      say: (line) => said.push(line),
    }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      `PostgreSQL at ${u.host}/sg_no_such_database refused the connection: database "sg_no_such_database" does not exist. Check DATABASE_URL.`,
    );
    expect(said).toEqual([]);
  } finally {
    await database.close();
  }
});
