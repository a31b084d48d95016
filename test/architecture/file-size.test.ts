// "Files small and named after what they hold; no source file over 600 lines": a file that grows past
// the limit is split by what its pieces hold. Every file under src/ counts (code, SQL, page templates),
// except the migrations drizzle-kit generates (src/db/migrations/): they are written by the tool, not read.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const LIMIT = 600;
const GENERATED = path.join('db', 'migrations');

/** Files under root longer than LIMIT lines, as "relative/path: N lines". */
function oversized(root: string, dir = root, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const rel = path.relative(root, p);
    if (rel === GENERATED) continue;
    if (statSync(p).isDirectory()) oversized(root, p, out);
    else {
      const lines = readFileSync(p, 'utf8').split('\n').length - 1;
      if (lines > LIMIT) out.push(`${rel}: ${lines} lines`);
    }
  }
  return out.sort();
}

it(`no file in src/ is over ${LIMIT} lines`, () => {
  expect(oversized(path.resolve('src'))).toEqual([]);
});

it('the check reports a file one line over the limit, and not one at it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-size-'));
  try {
    mkdirSync(path.join(dir, 'area'));
    writeFileSync(path.join(dir, 'area', 'long.ts'), 'x\n'.repeat(LIMIT + 1));
    writeFileSync(path.join(dir, 'at-limit.ts'), 'x\n'.repeat(LIMIT));
    mkdirSync(path.join(dir, GENERATED), { recursive: true });
    writeFileSync(path.join(dir, GENERATED, 'snapshot.json'), 'x\n'.repeat(LIMIT * 2));
    expect(oversized(dir)).toEqual([`${path.join('area', 'long.ts')}: ${LIMIT + 1} lines`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
