// The contract visitors' assistants see on a published site's endpoint (src/mcp/visitor/tools.ts), one
// snapshot per tool beside the owner tools' (test/__snapshots__/visitor-tools/<name>.json): its name,
// description, annotations, input and output schemas, in the owner tools' envelope, and its audience.
// A change to what those assistants see shows up in review.
import { expect, it } from 'vitest';
import { VISITOR_LISTING } from '../../src/mcp/visitor/server.js';

it.each(VISITOR_LISTING.map((t) => [t.def.name, t] as const))('%s', async (name, t) => {
  const contract = { ...t.listing, outputSchema: t.outputSchema, audience: t.def.audience };
  await expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot(
    `../__snapshots__/visitor-tools/${name}.json`,
  );
});
