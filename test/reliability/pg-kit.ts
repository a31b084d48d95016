// What the PostgreSQL fault tests (pg-*.test.ts) share: a tools/call that reports the whole answer
// (the failure envelope carries no structuredContent, only its text and the request id), the checks
// that a process is alive and ready, and a PostgreSQL cluster of the test's own that it may stop and
// start. Every wait is bounded.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { until } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';
import type { Child } from './harness.js';

export type Answer = {
  /** HTTP status, or 0 when no answer came (the process died, or the wait's bound ran out). */
  status: number;
  /** X-Request-Id of the answer. */
  requestId: string | null;
  ok: boolean;
  data?: any;
  /** The text of a failed result (or of a JSON-RPC error). */
  text?: string;
  /** The refusal's code, when the answer is one. */
  code?: string;
};

/** One tools/call on the 2025 wire, waiting at most `boundMs` for the answer. */
export async function callTool(
  base: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
  boundMs = 60_000,
): Promise<Answer> {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
  const res = await Promise.race([
    postMcp(`${base}/api/mcp`, token, body).catch(() => null),
    new Promise<null>((r) => setTimeout(() => r(null), boundMs).unref()),
  ]);
  if (!res) return { status: 0, requestId: null, ok: false };
  const requestId = res.headers.get('x-request-id');
  const json = (await res.json().catch(() => null)) as {
    result?: { isError?: boolean; structuredContent?: any; content?: Array<{ text?: string }> };
    error?: { message: string };
  } | null;
  if (json?.result) {
    const r = json.result;
    return {
      status: res.status,
      requestId,
      ok: !r.isError && r.structuredContent?.ok === true,
      data: r.structuredContent?.data,
      text: r.content?.[0]?.text,
      code: r.structuredContent?.error?.code,
    };
  }
  return { status: res.status, requestId, ok: false, text: json?.error?.message };
}

/**
 * A call the database's absence or slowness stopped before anything was committed
 * (docs/reliability.md, "Bounded waits"): the `unavailable` refusal, which says nothing was changed and
 * that the same call may be made again.
 */
export function expectUnavailable(a: Answer): void {
  expect(a.status, `no answer: ${JSON.stringify(a)}`).toBe(200);
  expect(a.ok).toBe(false);
  expect(a.code, a.text).toBe('unavailable');
  expect(a.text).toContain('nothing was changed');
  expect(a.text).toContain('Try the same call again');
}

export const alive = (c: Child) => c.server.child.exitCode === null && c.server.child.signalCode === null;

export async function readyz(base: string): Promise<number> {
  const r = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(20_000) }).catch(() => null);
  return r?.status ?? 0;
}

/** Waits (bounded: `tries` × 100 ms) until `list_pages` answers ok on every child. */
export async function servingAgain(children: Child[], websiteId: string, tries = 200): Promise<void> {
  for (const c of children) {
    await until(
      async () => (await callTool(c.base, c.demo.tokens.all, 'list_pages', { websiteId }, 10_000)).ok,
      tries,
      () => c.server.err().slice(-2000),
    );
  }
}

/** initdb and pg_ctl: on PATH, else in Debian's versioned folder (the postgresql package). */
export function pgBin(name: 'initdb' | 'pg_ctl'): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  for (const v of readdirSync(debian).sort().reverse()) {
    const p = path.join(debian, v, 'bin', name);
    if (existsSync(p)) return p;
  }
  return null;
}

export type Cluster = {
  port: number;
  /** postgres:// URL of the cluster's `postgres` database. */
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
};

/**
 * A PostgreSQL cluster of the test's own in a temporary folder (initdb, trust authentication, on
 * 127.0.0.1 and a free port). PostgreSQL refuses to run as root: as root it runs as the `postgres`
 * user through runuser, and the folder is handed to that user.
 */
export async function startCluster(): Promise<Cluster> {
  const initdb = pgBin('initdb');
  const pgCtl = pgBin('pg_ctl');
  if (!initdb || !pgCtl) throw new Error('initdb and pg_ctl are needed (the postgresql package)');
  const root = mkdtempSync(path.join(tmpdir(), 'sitegate-cluster-'));
  chmodSync(root, 0o777);
  const data = path.join(root, 'data');
  const asOwner = (cmd: string, args: string[]) => {
    const [file, argv] =
      process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    return execFileSync(file, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  };
  asOwner(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const opts = `-k ${root} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const log = path.join(root, 'log');
  const start = () => asOwner(pgCtl, ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
  const stop = () => asOwner(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => void start(),
    stop: () => void stop(),
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
