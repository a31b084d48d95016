// Which build a benchmark's Sitegate runs: the sources through tsx (the default), or with
// BENCH_COMPILED=1 the compiled dist/ with no TypeScript loader in the process, as the `sitegate`
// command and `npm start` run it. A stale dist/ is rebuilt first, so a compiled leg never measures
// older code than the sources.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ES module without declarations (shared with bin/sitegate.mjs).
import { buildIsFresh } from '../bin/build-freshness.mjs';

export const compiled = !!process.env.BENCH_COMPILED;

/** Builds dist/ when a source file is newer than the last build (BENCH_COMPILED only). */
export function buildIfStale(root: string): void {
  if (!compiled || buildIsFresh()) return;
  console.log('  building dist/ (BENCH_COMPILED=1, the sources are newer)…');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

/**
 * The V8 flags the `sitegate` command starts Node with, read from its shebang line
 * (`#!/usr/bin/env -S node …`), so benchmarks run the server as `npm start` does.
 */
export const productNodeFlags: string[] = (() => {
  const shebang = readFileSync(new URL('../bin/sitegate.mjs', import.meta.url), 'utf8').split('\n', 1)[0]!;
  const m = /^#!\/usr\/bin\/env -S node((?: --[\w-]+(?:=\S+)?)*)$/.exec(shebang);
  if (!m) throw new Error(`bin/sitegate.mjs: unexpected shebang ${shebang}`);
  return m[1]!.split(' ').filter(Boolean);
})();

/** Node's arguments for bench/serve.mjs in the chosen build, with the command's V8 flags. */
export const serveArgs = (...rest: string[]): string[] => [
  ...productNodeFlags,
  ...(compiled ? [] : ['--import', 'tsx']),
  'bench/serve.mjs',
  ...rest,
];
