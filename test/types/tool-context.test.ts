// A tool's context (R-REL-3) is typed by its declared transaction mode. Only a tool declared
// 'one' (the default) receives `ctx.tx`, the call's transaction; a tool declared 'none' or 'own' receives
// the pool as `ctx.db` and has no `ctx.tx`. The proof is the type checker (`npm run typecheck` fails if
// an @ts-expect-error below stops being an error); the test checks the call path agrees at run time.
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import type { DirectSiteCtx, SiteCtx } from '../../src/domain/context.js';
import { callTool } from '../../src/mcp/call.js';
import { defineTool } from '../../src/mcp/define-tool.js';
import { createRegistry } from '../../src/mcp/registry.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const rule = {
  scope: 'site:read',
  area: 'site',
  role: 'viewer',
  title: 'Context probe',
  description: 'Test only.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({}),
  output: z.object({ tx: z.boolean(), db: z.boolean() }),
  activity: () => 'Looked at its context',
} as const;
const has = (ctx: object) => ({ tx: 'tx' in ctx, db: 'db' in ctx });

const probeOne = defineTool({
  ...rule,
  name: 'probe_one',
  run: async (ctx) => {
    void ctx.tx;
    // @ts-expect-error a tool in one transaction has no pool handle
    void ctx.db;
    return has(ctx);
  },
});

const probeNone = defineTool({
  ...rule,
  name: 'probe_none',
  transaction: 'none',
  run: async (ctx) => {
    void ctx.db;
    // @ts-expect-error a read declared 'none' runs on the pool: there is no transaction to call ctx.tx
    void ctx.tx;
    return has(ctx);
  },
});

const probeOwn = defineTool({
  ...rule,
  name: 'probe_own',
  transaction: 'own',
  run: async (ctx) => {
    // @ts-expect-error a tool declared 'own' opens its own transactions on ctx.db; it gets no ctx.tx
    void ctx.tx;
    return has(ctx);
  },
});

// A 'none' or 'own' tool cannot hand its context to a domain function that needs a transaction.
const _passesOn = (direct: DirectSiteCtx) => {
  // @ts-expect-error the pool's context is not a transaction's
  const asTx: SiteCtx = direct;
  return asTx;
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

it('the call path hands ctx.tx only to a tool declared one, and ctx.db to none and own', async () => {
  const w = await s.workspace();
  const caller = (await callerForToken(s.sg.deps.services.db, w.tokens.all))!;
  const deps = { ...s.sg.deps, registry: createRegistry([probeOne, probeNone, probeOwn]) };
  const seen = async (name: string) =>
    (
      (await callTool(deps, caller, deps.registry.get(name)!, { websiteId: w.websites.main }))
        .structuredContent as {
        data: { tx: boolean; db: boolean };
      }
    ).data;
  expect(await seen('probe_one')).toEqual({ tx: true, db: false });
  expect(await seen('probe_none')).toEqual({ tx: false, db: true });
  expect(await seen('probe_own')).toEqual({ tx: false, db: true });
});
