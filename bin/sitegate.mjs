#!/usr/bin/env -S node --liftoff-only --max-semi-space-size=16 --heap-growing-percent=50
// The `sitegate` command. After `npm run build` it runs the compiled JavaScript in dist/ (no
// TypeScript at run time: faster start, less memory). Without a build — or when a source file is
// newer than the build, as during development — it runs src/ through tsx in this same process.
// Its V8 flags (issue 17) keep the memory that Node 20 keeps by default. Node 24 sizes the young
// generation from the machine's memory (84 MB of start-up garbage stayed resident after importing
// drizzle-orm on a 24 GiB machine), and --liftoff-only set from inside the process
// (src/db/client.ts) no longer stops TurboFan recompiling PGlite's WebAssembly there: on Node 24
// the embedded demo's serving process peaked at 940 MB at start without them and 289 MB with them
// (941 against 306–354 MB through the ladder's load), req/s unchanged (Node 22: 270 and 250 MB).
// --heap-growing-percent=50 lets the old generation grow to 1.5x what survived the last full collection
// before the next one, where V8 otherwise allows up to 4x when allocation is fast: under 32 connections
// the live heap stayed ≈ 31 MB but promoted garbage took the old generation to ≈ 100 MB, and the
// embedded server's peak to 302–349 MB (Node 20; 400 MB on Node 24). With it the peak stayed at the
// start-up's 234–255 MB through reads, writes and tools/list, for the same CPU per call (issue 17).
// `npm start` runs this file; so should a service manager (docs/operating.md).
import { fileURLToPath } from 'node:url';
import { buildIsFresh } from './build-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const useDist = process.env.SITEGATE_SOURCES !== '1' && buildIsFresh();
if (useDist) {
  await import(`${root}dist/main.js`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${root}src/main.ts`);
}
