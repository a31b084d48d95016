// Words a fresh clone can follow. Code, tests, benchmarks, scripts, CI and docs cite what the clone can
// open: docs/rules.md by rule id (`R-PLAN-4`), an RFC's section (`RFC 9110 §15`), the MCP
// specification, another file of the repository. Not documents kept elsewhere (a section sign that is
// not an RFC's or the MCP specification's, a `.md` file the repository does not hold, a sibling folder
// outside it) and not tracker numbers, which a reader cannot look up. Every rule id cited in src/ or
// bin/ must be defined in docs/rules.md. The table at the end proves the checks flag what they should.
// This file is the one file not scanned: its samples are the lines it must flag.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const SELF = 'test/architecture/citations.test.ts';

/** Text files a reader opens; fixture sites (HTML and CSS a crawler reads) and images are not prose. */
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|sh|sql|md|ya?ml)$/;
const SKIP = new Set(['node_modules', 'fixtures/sites', 'docs/screenshots', '__snapshots__']);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const rel = path.relative(ROOT, p).split(path.sep).join('/');
    if ([...SKIP].some((s) => rel === s || rel.endsWith(`/${s}`))) continue;
    if (statSync(p).isDirectory()) files(p, out);
    // .ci/run and bin/ scripts have no extension of their own.
    else if (TEXT.test(name) || rel.startsWith('.ci/') || rel.startsWith('bin/')) out.push(p);
  }
  return out;
}

type Source = { rel: string; text: string };
const read = (p: string): Source => ({
  rel: path.relative(ROOT, p).split(path.sep).join('/'),
  text: readFileSync(p, 'utf8'),
});

const ALL: Source[] = [
  ...['src', 'test', 'bench', 'scripts', '.ci', 'docs', 'bin'].flatMap((d) => files(path.join(ROOT, d))),
  path.join(ROOT, 'README.md'),
]
  .map(read)
  .filter((f) => f.rel !== SELF);
const CODE = ALL.filter((f) => f.rel.startsWith('src/') || f.rel.startsWith('bin/'));

/** A section sign may follow an RFC's number or the MCP specification, and may continue their list. */
const CITED_SECTION = /(?:RFC \d+[a-z]*|MCP specification|MCP spec)\s*§[\d.]+(?:\s*(?:,|and)\s*§[\d.]+)*/g;
const OUTSIDE_FOLDER = /\.\.\/shared\b|\bMCP-NOTES\b|\b(?:SPEC|DESIGN|STYLE)\b/;
/** `issue 47`, `issues 16 and 49`, `PR #12`, `(#47)`: two digits at most for a bare `#`, so CSS colours pass. */
const TRACKER = /\b(?:issues?|PR|pull request)s?[\s-]+#?\d+|(?:^|[\s(])#\d{1,2}\b(?![\w-])/i;
/** A Markdown file name: a path ending in `name.md` whose name has two letters at least (`p.md` is CSS). */
const MD_REF = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w-]{2,}\.md)\b/g;

/** What is wrong with one line of `file`, if anything. */
function problems(file: string, line: string): string[] {
  const out: string[] = [];
  if (line.replace(CITED_SECTION, '').includes('§'))
    out.push('a section sign that is not an RFC’s or the MCP’s');
  if (OUTSIDE_FOLDER.test(line)) out.push('a document outside the repository');
  if (TRACKER.test(line)) out.push('a tracker number');
  for (const m of line.matchAll(MD_REF)) {
    const ref = m[1]!;
    const here = path.join(ROOT, path.dirname(file), ref);
    if (!existsSync(here) && !existsSync(path.join(ROOT, ref)))
      out.push(`${ref}, which the repository lacks`);
  }
  return out;
}

function hits(list: Source[]): string[] {
  return list.flatMap(({ rel, text }) =>
    text
      .split('\n')
      .flatMap((line, i) => problems(rel, line).map((p) => `${rel}:${i + 1}: ${p}: ${line.trim()}`)),
  );
}

const RULE_ID = /\bR-[A-Z]+-\d+\b/g;
const rules = readFileSync(path.join(ROOT, 'docs/rules.md'), 'utf8');
const defined = [...rules.matchAll(/^- \*\*(R-[A-Z]+-\d+)\*\*/gm)].map((m) => m[1] as string);

it('scans every part of the repository a reader opens', () => {
  const tops = new Set(ALL.map((f) => (f.rel.includes('/') ? f.rel.slice(0, f.rel.indexOf('/')) : f.rel)));
  expect([...tops].sort()).toEqual(['.ci', 'README.md', 'bench', 'bin', 'docs', 'scripts', 'src', 'test']);
});

it('nothing cites a document outside the repository, a section of one, or a tracker number', () => {
  expect(hits(ALL)).toEqual([]);
});

it('every rule id the code cites is defined in docs/rules.md, once', () => {
  expect(defined.length).toBeGreaterThan(0);
  expect(defined.filter((id, i) => defined.indexOf(id) !== i)).toEqual([]);
  const known = new Set(defined);
  const missing = CODE.flatMap(({ rel, text }) =>
    [...text.matchAll(RULE_ID)]
      .map((m) => m[0])
      .filter((id) => !known.has(id))
      .map((id) => `${rel}: ${id}`),
  );
  expect(missing).toEqual([]);
});

describe('the checks can fail', () => {
  const flagged: Array<[string, string]> = [
    ['src/a.ts', '// Reviewed plans (SPEC §3): the lifecycle.'],
    ['src/a.ts', '// One declaration per tool (STYLE §1).'],
    ['src/a.ts', '// Scale-out (DESIGN.md §7).'],
    ['src/a.ts', '// A textarea sends CRLF (HTML §4.10.21.5).'],
    ['src/a.ts', '// RFC 6750 §3 and the spec §4.'],
    ['src/a.ts', '// See ../shared/SPEC.md for the table.'],
    ['src/a.ts', '// Built on SDK v2 (MCP-NOTES).'],
    ['test/a.test.ts', '// The catalogue of the SPEC, scope first.'],
    ['docs/a.md', 'As [the notes](NOTES.md) say.'],
    ['src/a.ts', '// docs/nowhere.md explains it.'],
    ['test/a.test.ts', '// The fault suite (issue 10): a real server.'],
    ['test/a.test.ts', '// Sites unlike the templates (issues 16 and 49).'],
    ['bench/a.ts', '// Benchmark of Issue 7.'],
    ['scripts/a.mjs', '// Came with PR #12.'],
    ['src/a.ts', '// The list fits (#47).'],
    ['.ci/run', '# fixed in #5'],
  ];
  const accepted: Array<[string, string]> = [
    ['src/a.ts', '// RFC 9110 §15: the status codes.'],
    ['src/a.ts', '// RFC 6265bis §4.1.3.2: Secure, Path=/.'],
    ['src/a.ts', '// RFC 6750 §3, §3.1 and the bearer grammar.'],
    ['src/a.ts', '// The MCP specification §2.1 says so.'],
    ['src/a.ts', '// Approval is the owner’s (R-PLAN-2); see docs/reviewed-plans.md.'],
    ['docs/a.md', 'Step by step: [adding a tool](adding-a-tool.md), then [the README](../README.md).'],
    ['src/a.ts', "const CSS = 'a{color:#333;border:1px solid #0001}';"],
    ['test/a.test.ts', "expect(body.find('.new .md').html()).toBe('p.md');"],
    ['test/a.test.ts', "expect(c).toEqual({ inks: ['#8a4b2a', '#123'] });"],
    ['src/a.ts', '// Item 6 of the list; 47 items in all.'],
  ];
  it.each(flagged)('flags %s: %s', (file, line) => {
    expect(problems(file, line)).not.toEqual([]);
  });
  it.each(accepted)('accepts %s: %s', (file, line) => {
    expect(problems(file, line)).toEqual([]);
  });
});
