#!/usr/bin/env node
// The `sitegate` command. After `npm run build` it runs the compiled JavaScript in dist/ (no
// TypeScript at run time: faster start, less memory). Without a build — or when a source file is
// newer than the build, as during development — it runs src/ through tsx in this same process.
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
