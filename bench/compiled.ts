// Which build a benchmark's Sitegate runs: the sources through tsx (the default), or with
// BENCH_COMPILED=1 the compiled dist/ with no TypeScript loader in the process, as the `sitegate`
// command and `npm start` run it. A stale dist/ is rebuilt first, so a compiled leg never measures
// older code than the sources.
import { execFileSync } from 'node:child_process';
// @ts-expect-error: a plain ES module without declarations (shared with bin/sitegate.mjs).
import { buildIsFresh } from '../bin/build-freshness.mjs';

export const compiled = !!process.env.BENCH_COMPILED;

/** Builds dist/ when a source file is newer than the last build (BENCH_COMPILED only). */
export function buildIfStale(root: string): void {
  if (!compiled || buildIsFresh()) return;
  console.log('  building dist/ (BENCH_COMPILED=1, the sources are newer)…');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

/** Node's arguments for bench/serve.mjs in the chosen build. */
export const serveArgs = (...rest: string[]): string[] => [
  ...(compiled ? [] : ['--import', 'tsx']),
  'bench/serve.mjs',
  ...rest,
];
