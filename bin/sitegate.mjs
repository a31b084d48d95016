#!/usr/bin/env node
// The `sitegate` command. After `npm run build` it runs the compiled JavaScript in dist/ (no
// TypeScript at run time: faster start, less memory). Without a build — or when a source file is
// newer than the build, as during development — it runs src/ through tsx in this same process.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/.built`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const useDist =
  process.env.SITEGATE_SOURCES !== '1' && existsSync(built) && statSync(built).mtimeMs >= newestSource(`${root}src`);
if (useDist) {
  await import(`${root}dist/main.js`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${root}src/main.ts`);
}
