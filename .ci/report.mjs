// Prints what one CI pass ran: its wall time, tests and assertions, and its ten slowest files.
// Usage: node .ci/report.mjs <label> <seconds> <vitest json> [assertion counts file]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [label, seconds, jsonFile, countsFile] = process.argv.slice(2);
const lines = [`${label}: ${seconds} s`];
if (jsonFile && existsSync(jsonFile)) {
  const r = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const assertions =
    countsFile && existsSync(countsFile)
      ? readFileSync(countsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .reduce((a, n) => a + Number(n), 0)
      : 'not counted';
  lines.push(
    `  ${r.testResults.length} files, ${r.numTotalTests} tests (${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + (r.numTodoTests ?? 0)} skipped), ${assertions} assertions`,
  );
  const slowest = r.testResults
    .map((f) => ({ file: path.relative(process.cwd(), f.name), s: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.s - a.s)
    .slice(0, 10);
  lines.push('  slowest files:');
  for (const f of slowest) lines.push(`    ${f.s.toFixed(1).padStart(6)} s  ${f.file}`);
}
console.log(lines.join('\n'));
