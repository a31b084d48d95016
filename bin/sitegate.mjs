#!/usr/bin/env -S node --liftoff-only --max-semi-space-size=16 --heap-growing-percent=50
// The `sitegate` command. After `npm run build` it runs the compiled JavaScript in dist/ (no
// TypeScript at run time: faster start, less memory). Without a build — or when a source file is
// newer than the build, as during development — it runs src/ through tsx in this same process.
// Its V8 flags keep memory where Node 20 keeps it by default. Node 24 sizes the young generation
// from the machine's memory, so start-up garbage stays resident, and --liftoff-only set from inside
// the process (src/db/client.ts) no longer stops TurboFan recompiling PGlite's WebAssembly there.
// --heap-growing-percent=50 lets the old generation grow to 1.5x what survived the last full
// collection before the next one (V8 otherwise allows up to 4x when allocation is fast), so promoted
// garbage under load no longer raises the peak, for the same CPU per call. The measurements are in
// docs/performance.md ("V8 flags of the sitegate command").
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
