// A first start's database preparation, run as a short-lived child process by openDatabase
// (src/db/client.ts): initdb and the migrations. The child's memory peak (PGlite's initdb)
// ends with it instead of staying in the serving process (R-OPS-2).
import { preparePgliteDir } from './client.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: prepare-data-dir <pgdata dir>');
await preparePgliteDir(dir);
