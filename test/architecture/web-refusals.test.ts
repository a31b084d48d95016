// Refusals are translated once per adapter: in the web adapter, web routes throw and the app's error
// handlers answer through src/web/refusal.tsx (which also turns a database that did not answer in time
// into the `unavailable` refusal), so no other web file tells a Refusal apart itself.
// The translation's behaviour is tested in test/web/refusal.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';

const WEB = path.resolve('src', 'web');

it("only the web adapter's one translation tells a Refusal apart", () => {
  const checking = sources(WEB)
    .filter((f) => /instanceof Refusal\b/.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(WEB, f))
    .sort();
  expect(checking).toEqual(['refusal.tsx']);
});
