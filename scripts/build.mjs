// `npm run build`: compiles src/ to dist/ with the TypeScript 7 compiler and copies what is not
// TypeScript (the SQL migrations, read from beside src/db/migrator.ts in both trees).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
// Written last: bin/sitegate.mjs runs dist/ only when it is newer than every source file.
writeFileSync('dist/.built', `${new Date().toISOString()}\n`);
