// Cold start and idle memory of `sitegate serve --demo`, four ways:
// compiled JavaScript (dist/, `npm run build` first) or TypeScript through tsx, on a fresh DATA_DIR
// (first start) or the same one again (restart). Cold start: from spawn to the first successful
// tools/list. Idle memory: the serving process's resident set (VmRSS) after IDLE_SECONDS of rest.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { productNodeFlags } from './compiled.js';
import { freePort } from '../scripts/free-port.js';

const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 15);

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function run(mode: 'compiled' | 'tsx', dataDir: string) {
  const port = await freePort();
  const out = path.join(dataDir, `demo-${port}.json`);
  const args =
    mode === 'compiled'
      ? [...productNodeFlags, 'dist/main.js', 'serve', '--demo', '--demo-out', out]
      : [...productNodeFlags, '--import', 'tsx', 'src/main.ts', 'serve', '--demo', '--demo-out', out];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  let coldMs = 0;
  for (let i = 0; i < 600 && !coldMs; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(out)) continue;
    const token = JSON.parse(readFileSync(out, 'utf8')).tokens.default as string;
    const r = await fetch(`http://127.0.0.1:${port}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }).catch(() => null);
    if (r?.status === 200) coldMs = performance.now() - started;
  }
  const peak = rssMb(child.pid!);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = rssMb(child.pid!);
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return {
    coldMs: Math.round(coldMs),
    rssAfterFirstCallMb: Math.round(peak),
    idleRssMb: Math.round(idle),
    exit: code,
  };
}

export async function bench() {
  if (!existsSync('dist/main.js')) console.log('(no dist/: run `npm run build` for the compiled rows)');
  const rows: Array<Record<string, unknown>> = [];
  for (const mode of ['compiled', 'tsx'] as const) {
    if (mode === 'compiled' && !existsSync('dist/main.js')) continue;
    const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-startup-'));
    rows.push({ mode, start: 'fresh DATA_DIR', ...(await run(mode, dir)) });
    rows.push({ mode, start: 'restart', ...(await run(mode, dir)) });
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
