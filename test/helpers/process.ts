// `sitegate` as a real child process (node --import tsx src/main.ts …), for tests that must see what
// an operator sees: exit codes, messages, signals. Output is collected; `stdin` is written and closed.
import { type ChildProcess, spawn } from 'node:child_process';

export type Run = { code: number | null; signal: NodeJS.Signals | null; out: string; err: string };
export type Running = { child: ChildProcess; out(): string; err(): string; done: Promise<Run> };

export function sitegate(
  args: string[],
  /** `wrap`: a command the process runs under, e.g. strace and its options. */
  opts: { env?: Record<string, string>; stdin?: string; wrap?: string[] } = {},
): Running {
  // Vite puts BASE_URL='/' (and NODE_ENV=test) into the test process's environment: not ours to pass on.
  const { BASE_URL: _base, NODE_ENV: _env, ...inherited } = process.env;
  const [command, ...prefix] = [...(opts.wrap ?? []), process.execPath];
  const child = spawn(command!, [...prefix, '--import', 'tsx', 'src/main.ts', ...args], {
    // IDP_PORT=0: a child's development identity provider takes a free port, never the shared 8788.
    env: { ...inherited, LOG_LEVEL: 'warn', NO_COLOR: '1', IDP_PORT: '0', ...opts.env },
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  child.stdin!.end(opts.stdin ?? '');
  const done = new Promise<Run>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, out, err })),
  );
  return { child, out: () => out, err: () => err, done };
}

/** Runs a command to its end. */
export const run = (args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
  sitegate(args, opts).done;

/** Polls `check` every 100 ms until it returns a value (bounded: `tries` × 100 ms). */
export async function until<T>(
  check: () => T | undefined | null | Promise<T | undefined | null>,
  tries = 300,
  context: () => string = () => '',
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v as T;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not reached in time ${context()}`);
}
