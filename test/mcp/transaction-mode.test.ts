// Issue 10 item 9: a tool's transaction mode is declared on the tool, never inferred from readOnlyHint
// (a hint for clients). A tool that declares one transaction gets one even when it calls itself
// read-only: its write and everything else it did roll back together when it fails.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import { companyMemory } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { callTool } from '../../src/mcp/call.js';
import { type TransactionMode, defineTool } from '../../src/mcp/define-tool.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

/** A tool that writes one fact, then fails: whether the fact stays depends only on its declared mode. */
const failingWriter = (transaction: TransactionMode) =>
  defineTool({
    name: `failing_writer_${transaction}`,
    scope: 'content:write',
    area: 'content',
    role: 'editor',
    title: 'Failing writer',
    description: 'Test only.',
    // Claims to be read-only: the claim must not decide how it runs.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    transaction,
    input: z.object({ fact: z.string() }),
    output: z.object({}),
    activity: () => 'Tried to write a fact',
    run: async (ctx, input) => {
      await ctx.tx
        .insert(companyMemory)
        .values({ id: newId('mem'), companyId: ctx.website.companyId, fact: input.fact });
      throw new Error('fails after writing');
    },
  });

it("a tool declared 'one' runs in one transaction even with readOnlyHint: its write rolls back on failure", async () => {
  const w = await s.workspace();
  const caller = (await callerForToken(s.sg.deps.services.db, w.tokens.all))!;
  const tools = [failingWriter('one'), failingWriter('own')];
  const deps = { ...s.sg.deps, registry: createRegistry(tools) };
  const facts = async (fact: string) =>
    s.sg.deps.services.db.select().from(companyMemory).where(eq(companyMemory.fact, fact));

  const one = await callTool(deps, caller, 'failing_writer_one', {
    websiteId: w.websites.main,
    fact: `one ${w.companyId}`,
  });
  expect(one.isError).toBe(true);
  expect(await facts(`one ${w.companyId}`)).toHaveLength(0);

  // Declared 'own', the same tool manages its own transactions: its statement stood on its own.
  const own = await callTool(deps, caller, 'failing_writer_own', {
    websiteId: w.websites.main,
    fact: `own ${w.companyId}`,
  });
  expect(own.isError).toBe(true);
  expect(await facts(`own ${w.companyId}`)).toHaveLength(1);
});
