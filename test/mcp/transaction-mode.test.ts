// A tool's transaction mode (R-REL-3) is declared on the tool, never inferred from readOnlyHint
// (a hint for clients). A tool that declares one transaction gets one even when it calls itself
// read-only: its write and everything else it did roll back together when it fails.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import { companyMemory } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { callTool } from '../../src/mcp/call.js';
import type { Db } from '../../src/db/client.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

/** A tool that writes one fact, then fails: whether the fact stays depends only on its declared mode. */
const writer = (name: string) =>
  ({
    name,
    scope: 'content:write',
    area: 'content',
    role: 'editor',
    title: 'Failing writer',
    description: 'Test only.',
    // Claims to be read-only: the claim must not decide how it runs.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: z.object({ fact: z.string() }),
    output: z.object({}),
    activity: () => 'Tried to write a fact',
  }) as const;
const writeThenFail = async (db: Db, companyId: string, fact: string) => {
  await db.insert(companyMemory).values({ id: newId('mem'), companyId, fact });
  throw new Error('fails after writing');
};
const failingWriterOne = defineTool({
  ...writer('failing_writer_one'),
  transaction: 'one',
  run: (ctx, input) => writeThenFail(ctx.tx, ctx.website.companyId, input.fact),
});
// Declared 'own': the context has the pool as ctx.db, and no ctx.tx (test/types/tool-context.test.ts).
const failingWriterOwn = defineTool({
  ...writer('failing_writer_own'),
  transaction: 'own',
  run: (ctx, input) => writeThenFail(ctx.db, ctx.website.companyId, input.fact),
});

it("a tool declared 'one' runs in one transaction even with readOnlyHint: its write rolls back on failure", async () => {
  const w = await s.workspace();
  const caller = (await callerForToken(s.sg.deps.services.db, w.tokens.all))!;
  const tools = [failingWriterOne, failingWriterOwn];
  const deps = { ...s.sg.deps, registry: createRegistry(tools) };
  const facts = async (fact: string) =>
    s.sg.deps.services.db.select().from(companyMemory).where(eq(companyMemory.fact, fact));

  const one = await callTool(deps, caller, deps.registry.get('failing_writer_one')!, {
    websiteId: w.websites.main,
    fact: `one ${w.companyId}`,
  });
  expect(one.isError).toBe(true);
  expect(await facts(`one ${w.companyId}`)).toHaveLength(0);

  // Declared 'own', the same tool manages its own transactions: its statement stood on its own.
  const own = await callTool(deps, caller, deps.registry.get('failing_writer_own')!, {
    websiteId: w.websites.main,
    fact: `own ${w.companyId}`,
  });
  expect(own.isError).toBe(true);
  expect(await facts(`own ${w.companyId}`)).toHaveLength(1);
});
