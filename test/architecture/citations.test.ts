// Comments cite what a fresh clone can open: docs/rules.md by rule id (`R-PLAN-4`), an RFC section, the
// MCP specification, another file of the repository. Not documents kept outside it ("SPEC §3",
// "DESIGN §5.1", `../shared/…`) and not tracker numbers ("issue 10 item 6"), which a reader cannot follow.
// Every rule id cited in src/ or bin/ must be defined in docs/rules.md.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve('.');

function files(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) files(p, ext, out);
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

const read = (p: string) => ({
  rel: path.relative(ROOT, p).split(path.sep).join('/'),
  text: readFileSync(p, 'utf8'),
});
const code = [
  ...files(path.join(ROOT, 'src'), /\.(ts|tsx|sql)$/),
  ...files(path.join(ROOT, 'bin'), /\.m?js$/),
].map(read);
const docs = [path.join(ROOT, 'README.md'), ...files(path.join(ROOT, 'docs'), /\.md$/)].map(read);

const OUTSIDE = /\b(SPEC|DESIGN)(\.md)?\s*§|\.\.\/shared\//;
const TRACKER = /\bissues? #?\d+/i;
const RULE_ID = /\bR-[A-Z]+-\d+\b/g;

function hits(list: { rel: string; text: string }[], pattern: RegExp): string[] {
  return list.flatMap(({ rel, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const rules = readFileSync(path.join(ROOT, 'docs/rules.md'), 'utf8');
const defined = [...rules.matchAll(/^- \*\*(R-[A-Z]+-\d+)\*\*/gm)].map((m) => m[1] as string);

it('no code or doc cites a document outside the repository', () => {
  expect(hits([...code, ...docs], OUTSIDE)).toEqual([]);
});

it('no code cites a tracker number', () => {
  expect(hits(code, TRACKER)).toEqual([]);
});

it('every rule id the code cites is defined in docs/rules.md, once', () => {
  expect(defined.length).toBeGreaterThan(0);
  expect(defined.filter((id, i) => defined.indexOf(id) !== i)).toEqual([]);
  const known = new Set(defined);
  const missing = code.flatMap(({ rel, text }) =>
    [...text.matchAll(RULE_ID)]
      .map((m) => m[0])
      .filter((id) => !known.has(id))
      .map((id) => `${rel}: ${id}`),
  );
  expect(missing).toEqual([]);
});
