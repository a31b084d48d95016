// Counts the checks of one conformance-suite run (its -o folder) and decides whether they pass:
// every check must be SUCCESS (or SKIPPED/INFO/WARNING), except the listed ones that the suite
// itself marks untestable because they need the suite's own fixture tools (test_*), which a real
// server does not have. Prints "passed/total" and exits 1 on any other failure.
// Usage: node scripts/conformance-count.mjs <results dir> [check id allowed untestable]...
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const [dir, ...allowed] = process.argv.slice(2);
const files = [];
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = path.join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (f === 'checks.json') files.push(p);
  }
};
walk(dir);
let passed = 0;
let total = 0;
const unexpected = [];
const untestable = [];
for (const f of files) {
  for (const c of JSON.parse(readFileSync(f, 'utf8'))) {
    if (c.status === 'SKIPPED' || c.status === 'INFO') continue;
    total += 1;
    if (c.status === 'SUCCESS' || c.status === 'WARNING') passed += 1;
    else if (allowed.includes(c.id) && c.details?.untestable) untestable.push(c.id);
    else unexpected.push(`${c.id}: ${c.errorMessage ?? c.status}`);
  }
}
const note = untestable.length
  ? ` (untestable without the suite's fixture tools: ${untestable.join(', ')})`
  : '';
console.log(`${passed}/${total} checks passed${note}`);
for (const u of unexpected) console.log(`  FAILED ${u}`);
process.exit(files.length === 0 || unexpected.length > 0 ? 1 : 0);
