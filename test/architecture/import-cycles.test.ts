// Layering. src/ is a house whose floors point one way: each top-level folder (or root file) of src/
// sits on one floor and imports only from floors below it, never from a sibling on its own floor and
// never from above. The floors are the table of docs/architecture.md, read from there. Inside one
// folder, files may import each other but must not form a cycle through static value imports (a module
// in a cycle can be read before it has finished loading).
// For the floors every import counts, type-only and dynamic ones too: a type import still couples the
// lower floor to the upper one. For cycles only static value imports count (types are erased).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';

/**
 * The floors, bottom first, read from the table of docs/architecture.md (the one statement of them):
 * a row `| <floor> | \`unit/\`, \`root.ts\` | what it holds |`. A unit may import its own files and any
 * unit on a lower floor.
 */
function floorsOfDoc(text: string): string[][] {
  const rows = [...text.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => ({
    floor: Number(m[1]),
    units: [...m[2]!.matchAll(/`([^`]+)`/g)].map((u) => u[1]!.replace(/\/$|\.tsx?$/, '')),
  }));
  const layers: string[][] = [];
  for (const r of rows) {
    if (layers[r.floor]) throw new Error(`docs/architecture.md: floor ${r.floor} appears twice`);
    layers[r.floor] = r.units;
  }
  const gap = Array.from(layers, (u, i) => (u ? -1 : i)).find((i) => i >= 0);
  if (gap !== undefined) throw new Error(`docs/architecture.md: floor ${gap} is missing`);
  return layers;
}

const LAYERS: readonly (readonly string[])[] = floorsOfDoc(
  readFileSync(path.resolve('docs/architecture.md'), 'utf8'),
);

type Edge = { from: string; to: string; typeOnly: boolean; dynamic: boolean };

const IMPORT = /^(?:import|export)\s+(type\s+)?[^;]*?\s+from\s+'(\.[^']+)'/gms;
const DYNAMIC = /\bimport\(\s*'(\.[^']+)'\s*\)/g;

function edges(root: string): Edge[] {
  const files = new Set(sources(root));
  const resolve = (from: string, spec: string) => {
    const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => files.has(c));
  };
  const out: Edge[] = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const to = resolve(f, m[2]!);
      if (to) out.push({ from: f, to, typeOnly: Boolean(m[1]), dynamic: false });
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const to = resolve(f, m[1]!);
      if (to) out.push({ from: f, to, typeOnly: false, dynamic: true });
    }
  }
  return out;
}

/** The floor unit of a file: its top-level folder under src/, or a root file's name without extension. */
function unitOf(root: string, file: string): string {
  const parts = path.relative(root, file).split(path.sep);
  return parts.length === 1 ? parts[0]!.replace(/\.tsx?$/, '') : parts[0]!;
}

function layerViolations(root: string, layers = LAYERS): string[] {
  const floor = new Map<string, number>();
  layers.forEach((units, i) => {
    for (const u of units) floor.set(u, i);
  });
  const out = new Set<string>();
  for (const f of sources(root)) {
    const u = unitOf(root, f);
    if (!floor.has(u)) out.add(`${u}: not on any floor (add it to the floors of docs/architecture.md)`);
  }
  for (const e of edges(root)) {
    const a = unitOf(root, e.from);
    const b = unitOf(root, e.to);
    if (a === b) continue;
    const fa = floor.get(a);
    const fb = floor.get(b);
    if (fa === undefined || fb === undefined || fb < fa) continue;
    const why = fb === fa ? 'sideways' : 'upward';
    out.add(`${why}: ${path.relative(root, e.from)} -> ${path.relative(root, e.to)}`);
  }
  return [...out].sort();
}

function importCycles(root: string): string[] {
  const graph = new Map<string, string[]>();
  for (const f of sources(root)) graph.set(f, []);
  for (const e of edges(root)) if (!e.typeOnly && !e.dynamic) graph.get(e.from)!.push(e.to);
  const cycles: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (n: string) => {
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      const at = stack.indexOf(d);
      if (at >= 0) cycles.push([...stack.slice(at), d].map((x) => path.relative(root, x)).join(' -> '));
      else if (!done.has(d)) visit(d);
    }
    stack.pop();
    done.add(n);
  };
  for (const f of graph.keys()) if (!done.has(f)) visit(f);
  return cycles;
}

const ROOT = path.resolve('src');

it('src/ has no import cycle (client snippets live in the web layer; the CLI only renders them)', () => {
  expect(importCycles(ROOT)).toEqual([]);
});

it('every import in src/ points down a floor (LAYERS), never sideways or up', () => {
  expect(layerViolations(ROOT)).toEqual([]);
});

it('the floors are read from docs/architecture.md: kernel at the bottom, the process entry on top', () => {
  expect(LAYERS[0]).toEqual(['kernel']);
  expect(LAYERS.at(-1)).toEqual(['main']);
  expect(LAYERS.flat()).toContain('gate');
});

describe('the checks can fail', () => {
  it('refuses a floors table with a floor twice or a floor missing', () => {
    const doc = (rows: string) => `| floor | units | holds |\n|---|---|---|\n${rows}`;
    expect(floorsOfDoc(doc('| 1 | `db/`, `net/` | x |\n| 0 | `kernel/` | y |\n'))).toEqual([
      ['kernel'],
      ['db', 'net'],
    ]);
    expect(() => floorsOfDoc(doc('| 0 | `db/` | x |\n| 0 | `kernel/` | y |\n'))).toThrow(/twice/);
    expect(() => floorsOfDoc(doc('| 2 | `db/` | x |\n| 0 | `kernel/` | y |\n'))).toThrow(
      /floor 1 is missing/,
    );
  });

  // A throwaway tree with one upward arrow, one sideways arrow, one unplaced folder and one cycle:
  // proves the two rules above would notice, so their passing means something.
  it('reports an upward import, a sideways import, an unplaced folder and a cycle', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sg-layers-'));
    try {
      const put = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      };
      put('kernel/errors.ts', "import type { Route } from '../web/app.js';\nexport type E = Route;\n");
      put('db/a.ts', "import { n } from '../net/b.js';\nexport const a = n;\n");
      put('net/b.ts', 'export const n = 1;\n');
      put('web/app.ts', "import { y } from './y.js';\nexport type Route = string;\nexport const x = y;\n");
      put('web/y.ts', "import { x } from './app.js';\nexport const y = () => x;\n");
      put('attic/old.ts', 'export const old = 1;\n');
      expect(layerViolations(dir)).toEqual([
        'attic: not on any floor (add it to the floors of docs/architecture.md)',
        'sideways: db/a.ts -> net/b.ts',
        'upward: kernel/errors.ts -> web/app.ts',
      ]);
      expect(importCycles(dir)).toEqual(['web/app.ts -> web/y.ts -> web/app.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
