// "The gate is the only place that decides access", checked on the source:
// the gate's authorize() is called only by the call path and by plan redemption, the agency's withheld
// areas are read only inside src/gate/, and tool declarations never import the gate's decisions.
// Behaviour is tested elsewhere: merge targets in test/portable/merge.test.ts, the withheld invoicing
// figures in test/business/areas.test.ts, every refusal in test/gate/decide.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';

const ROOT = path.resolve('src');

const files = sources(ROOT).map((f) => ({ rel: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));
const outsideGate = files.filter((f) => !f.rel.startsWith(`gate${path.sep}`));
const where = (re: RegExp, among = outsideGate) =>
  among
    .filter((f) => re.test(f.text))
    .map((f) => f.rel)
    .sort();

it('authorize() runs only in the call path and when a reviewed plan is redeemed', () => {
  // src/mcp/tools/import.ts called it itself for the merge target; the call path now hands tools
  // ctx.authorizeWebsite, bound to the tool's own rule.
  // The call path: its admission refuses a missing scope before parsing; its run asks on the live facts.
  expect(where(/\bauthorize\(/)).toEqual(['mcp/call/admit.ts', 'mcp/call/run.ts', 'plans/confirm.ts']);
});

it("an agency's withheld areas are read only by the gate", () => {
  // src/domain/commerce/overview.ts read companies.withheldAreas itself; it asks gate/areas.ts now.
  expect(
    where(
      /companies\.withheldAreas|withheld_areas/,
      outsideGate.filter((f) => !f.rel.startsWith('db')),
    ),
  ).toEqual([]);
  expect(where(/companies\.withheldAreas/, files).length).toBeGreaterThan(0);
});

it('tool declarations import nothing but types from the gate', () => {
  const tools = files.filter((f) => f.rel.startsWith(path.join('mcp', 'tools')));
  expect(where(/^import\s+(?!type\b)[^;]*from\s+'[./]+gate\//m, tools)).toEqual([]);
});

it("a person's role on a website is decided only by the gate: no owner or role check written elsewhere", () => {
  // The rules that are business rather than access (never remove a site's last owner; an invitation
  // never grants owner) count roles of rows they already hold; none filters by a role in a query.
  expect(where(/eq\(\s*websiteMembers\.role\s*,/)).toEqual([]);
  expect(where(/website_members\.role\s*=|role\s*=\s*'owner'/)).toEqual([]);
  expect(where(/eq\(\s*websiteMembers\.role\s*,/, files).length).toBeGreaterThan(0);
});
