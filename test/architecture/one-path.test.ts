// Issue 10 item 8: one path for each write, checked on the source. A website (with its owner and brand)
// is created only by insertSite in src/domain/workspace/create-site.ts, which re-checks the plan's site
// limit with the company row locked; sections are inserted only by insertSections in
// src/domain/sections/store.ts. src/portable/ (import_site) and src/migrate/ used to insert websites,
// owners, brands and sections themselves; they call the domain now. The behaviour (one refusal, same
// answer from every tool) is tested in test/business/site-limit.test.ts.
// The same holds for protocol answers: tools/list and tools/call are computed by src/mcp/tool-answers.ts,
// which the SDK's handlers and the endpoint's direct answers to plain 2025 requests both call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';

const ROOT = path.resolve('src');

const files = sources(ROOT).map((f) => ({ rel: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));
const inserting = (table: string) =>
  files
    .filter((f) => new RegExp(`\\.insert\\(\\s*${table}\\s*\\)`).test(f.text))
    .map((f) => f.rel.split(path.sep).join('/'))
    .sort();

it('websites and brands are created only by the domain’s one site-creation function', () => {
  expect(inserting('websites')).toEqual(['domain/workspace/create-site.ts']);
  expect(inserting('brands')).toEqual(['domain/workspace/create-site.ts']);
  // Members are also added when an invitation is accepted; a site's first owner only with the site.
  expect(inserting('websiteMembers')).toEqual(['domain/access/accept.ts', 'domain/workspace/create-site.ts']);
});

it('sections are inserted only by the domain’s section insertion', () => {
  expect(inserting('sections')).toEqual(['domain/sections/store.ts']);
});

it('tools/list and tools/call are answered in one place, for the SDK’s handlers and the direct path alike', () => {
  const calling = (pattern: RegExp) =>
    files
      .filter((f) => pattern.test(f.text))
      .map((f) => f.rel.split(path.sep).join('/'))
      .sort();
  // The listing and the call with its special cases (unbound clients, unknown tools, approvals);
  // resources/read runs its tool through callTool as well.
  expect(calling(/\.listFor\(/)).toEqual(['mcp/tool-answers.ts']);
  expect(calling(/(?<![.\w]|function )callTool\(/)).toEqual(['mcp/resources.ts', 'mcp/tool-answers.ts']);
  expect(calling(/(approvalAnswer|unboundAnswer)\(/)).toEqual(['mcp/human-steps.ts', 'mcp/tool-answers.ts']);
});
