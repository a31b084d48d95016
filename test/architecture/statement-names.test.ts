// Named statements (src/db/named.ts): node-postgres refuses a name that one connection already prepared
// for another text, so a fixed name given at two places in the source would fail on PostgreSQL as soon
// as both ran on one pooled connection. Each fixed name is written once (a section's saves add their
// columns to one prefix, so each set of columns has its own name).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';

it('every fixed statement name appears at one place in src/', () => {
  const names = sources(path.resolve('src')).flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/(?:fixed(?:Select|Sql)\(|name:\s*)'([^']+)'/g)]
      .map((m) => m[1]!)
      .filter((n) => n.startsWith('sitegate_')),
  );
  expect(names.length).toBeGreaterThanOrEqual(6);
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
});
