// Layering (issue 14 item 8): no module of src/ reaches itself again through static value imports.
// The CLI once closed such a loop (cli/serve.ts -> runtime -> web -> pages/snippets.ts -> cli/serve.ts):
// a module in a cycle can be read before it has finished loading. Type-only imports are erased by the
// compiler and dynamic `import()` runs after loading, so neither counts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve('src');
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\s+from\s+'(\.[^']+)'/gms;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

function importCycles(root: string): string[] {
  const files = new Set(sources(root));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    for (const m of readFileSync(f, 'utf8').matchAll(STATIC_IMPORT)) {
      const base = path.resolve(path.dirname(f), m[1]!).replace(/\.js$/, '');
      const hit = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => files.has(c));
      if (hit) deps.push(hit);
    }
    graph.set(f, deps);
  }
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
  for (const f of files) if (!done.has(f)) visit(f);
  return cycles;
}

it('src/ has no import cycle (client snippets live in the web layer; the CLI only renders them)', () => {
  expect(importCycles(ROOT)).toEqual([]);
});
