// Whether dist/ is at least as new as every file under src/: read by the `sitegate` command (run dist/
// or the sources) and by `npm start`'s prestart (`scripts/build.mjs --if-stale`), so both agree.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function buildIsFresh() {
  const built = `${root}dist/.built`;
  return existsSync(built) && statSync(built).mtimeMs >= newestSource(`${root}src`);
}
