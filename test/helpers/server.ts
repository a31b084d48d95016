// Starts a real Sitegate HTTP server in-process on a free 127.0.0.1 port, with a fresh demo fixture,
// and connects the official MCP SDK v2 Client to it. The client negotiates (`auto`), so the suite
// runs on the 2026-07-28 wire; test/e2e/clients.test.ts covers the 2025 path and older SDKs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino, { type DestinationStream } from 'pino';
import { freePort } from '../../scripts/free-port.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { fileBlobStore } from '../../src/domain/library/blobs.js';
import type { Clock } from '../../src/domain/context.js';
import { JOBS, type Sitegate, createSitegate } from '../../src/runtime.js';
import { testDatabase, uniqueTag } from './db.js';
import { type Workspace, type WorkspaceOptions, makeWorkspace } from './factory.js';

// A port free now, drawn below the ephemeral range: the one helper tests, benchmarks and CI share.
export { freePort };

export type TestServer = {
  sg: Sitegate;
  url: string;
  mcpUrl: string;
  demo: Demo;
  /** A connected SDK client using this bearer token. */
  client(token: string): Promise<Client>;
  /** Calls a tool and returns the structured envelope `{ ok, data?, error? }`. */
  call(token: string, name: string, args?: Record<string, unknown>): Promise<Envelope>;
  /** Makes a new demo fixture (another isolated workspace) in the same database. */
  seed(): Promise<Demo>;
  /** Makes a slim workspace (test/helpers/factory.ts): a fraction of seed()'s time. */
  workspace(o?: WorkspaceOptions): Promise<Workspace>;
  close(): Promise<void>;
};

export type Envelope = {
  ok: boolean;
  data?: Record<string, unknown> & Record<string, any>;
  error?: { code: string; message: string; hint?: string };
  isError?: boolean;
  text?: string;
};

export async function startTestServer(
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    /** false: no demo at start (use workspace() or seed() per test); `demo` then throws. */
    seed?: boolean;
    /** Read the server's own log lines (its default pino logger, at LOG_LEVEL info) from here. */
    logDestination?: DestinationStream;
    /**
     * true: the periodic background jobs run, as in `sitegate serve`. Off by default: a file's servers
     * share its database, and one server's mail sweep (its own SMTP, its own clock) or retention would
     * act on the others' rows. Tests run the one job they test by hand (`runJob`).
     */
    backgroundJobs?: boolean;
    /** Serve from this database instead of the file's shared one (its migrations already applied). */
    database?: Database;
  } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await testDatabase());
  // freePort() cannot reserve the port: another process may take it before we listen, so retry
  // with a new one (unless the caller fixed PORT).
  let sg: Sitegate | undefined;
  let url = '';
  for (let attempt = 0; !sg; attempt += 1) {
    const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-test-'));
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: opts.logDestination ? 'info' : 'silent',
      REDIS_URL: process.env.REDIS_URL ?? '',
      // A loaded test worker can stall its event loop past the 300 ms production bound; a limit then
      // taken in memory after Redis already counted it makes exact-cap assertions flaky. Tests of the
      // bound itself set their own.
      REDIS_TIMEOUT_MS: '5000',
      ...opts.env,
    });
    const candidate = await createSitegate(config, {
      database,
      clock: opts.clock,
      ...(opts.logDestination
        ? { logDestination: opts.logDestination }
        : { log: pino({ level: process.env.TEST_LOG ?? 'silent' }) }),
      limitPrefix: `test:${uniqueTag()}`,
      // Each server its own blob folder, also on PostgreSQL, so blob counts are this file's alone
      // (both stores are tested directly in test/db/blobs.test.ts).
      blobs: fileBlobStore(path.join(dataDir, 'blobs')),
      backgroundJobs: opts.backgroundJobs ?? false,
    });
    try {
      url = (await candidate.listen()).url;
      sg = candidate;
    } catch (err) {
      await candidate.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || opts.env?.PORT || attempt >= 4) throw err;
    }
  }
  const demo = opts.seed === false ? null : await seedDemo(database.db, { tag: uniqueTag() });
  const clients: Client[] = [];
  const client = async (token: string) => {
    const c = new Client(
      { name: 'sitegate-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(c);
    return c;
  };
  const byToken = new Map<string, Client>();
  return {
    sg,
    url,
    mcpUrl: `${url}/api/mcp`,
    get demo(): Demo {
      if (!demo) throw new Error('This test server was started with seed: false; use workspace() or seed().');
      return demo;
    },
    client,
    async call(token, name, args = {}) {
      let c = byToken.get(token);
      if (!c) {
        c = await client(token);
        byToken.set(token, c);
      }
      const r = await c.callTool({ name, arguments: args });
      const content = r.content as Array<{ type: string; text?: string }>;
      const env = (r.structuredContent ?? { ok: false }) as Envelope;
      return { ...env, isError: Boolean(r.isError), text: content[0]?.text };
    },
    seed: () => seedDemo(database.db, { tag: uniqueTag() }),
    workspace: (o) => makeWorkspace(database.db, o),
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await sg.close();
    },
  };
}

/** One raw JSON-RPC POST to an MCP URL (for status-code checks the SDK client would hide). */
export function postMcp(
  mcpUrl: string,
  token: string,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' },
) {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
}

/**
 * A raw stateless tools/call on the 2025 path (no initialize): the HTTP status, and the envelope's
 * error code or 'ok' when the call succeeded.
 */
export async function rawCallCode(
  mcpUrl: string,
  token: string,
  name = 'list_pages',
  args: Record<string, unknown> = {},
): Promise<{ status: number; code?: string; text?: string }> {
  const res = await postMcp(mcpUrl, token, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  if (res.status !== 200) return { status: res.status };
  const body = (await res.json()) as {
    result?: { structuredContent?: { ok: boolean; error?: { code: string; message: string } } };
  };
  const env = body.result?.structuredContent;
  return { status: 200, code: env?.ok ? 'ok' : env?.error?.code, text: env?.error?.message };
}

/**
 * Runs one of the service's periodic jobs by name. Never all of them: every job acts on the whole
 * database, and the others, run under a clock moved ahead, would take rows the file's other tests
 * still use (sign-in interactions, queued mail, sessions, reservations). Before each file had a
 * PostgreSQL database of its own (test/setup-database.ts), they took other files' rows: CI failures.
 */
export async function runJob(s: TestServer, name: string): Promise<unknown> {
  const job = JOBS.find((j) => j.name === name);
  if (!job) throw new Error(`no job named ${name}: ${JOBS.map((j) => j.name).join(', ')}`);
  return job.run(s.sg.deps);
}
