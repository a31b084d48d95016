// `npm run build`: compiles src/ to dist/ with the TypeScript 7 compiler and copies what is not
// TypeScript (the SQL migrations, read from beside src/db/migrator.ts in both trees).
// `--if-stale` (npm start's prestart): only when a source file is newer than the last
// build, and a failed build only warns: bin/sitegate.mjs then runs the sources through tsx.
// Compiled JavaScript keeps the serving process ~70 MB smaller than tsx (bench/startup.ts).
// It also builds the MCP App documents (scripts/build-apps.mjs) into dist/web/apps/built/.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { buildIsFresh } from '../bin/build-freshness.mjs';
import { buildAppDocuments } from './build-apps.mjs';

const ifStale = process.argv.includes('--if-stale');
if (ifStale && buildIsFresh()) process.exit(0);
try {
  rmSync('dist', { recursive: true, force: true });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
  mkdirSync('dist/web/apps/built', { recursive: true });
  for (const [id, html] of Object.entries(await buildAppDocuments())) {
    writeFileSync(`dist/web/apps/built/${id}.html`, html);
  }
  // Written last: bin/sitegate.mjs runs dist/ only when it is newer than every source file.
  writeFileSync('dist/.built', `${new Date().toISOString()}\n`);
} catch (err) {
  if (!ifStale) throw err;
  console.warn(`sitegate: the build failed (${err.message}); running the sources through tsx instead.`);
}
