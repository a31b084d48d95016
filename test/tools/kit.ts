// What a test file of one tool (test/tools/<tool>.test.ts) needs, cheaply: a Sitegate built in-process
// on the file's shared test database but never listening (calls go through its HTTP app's `fetch`:
// the bearer edge, the MCP endpoint and the tool, so the envelope is what clients see), the tool's
// contract snapshot, and the "nothing written" check of a refusal: the workspace's rows before and
// after, and the refusal's Activity line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, inArray, is } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import * as schema from '../../src/db/schema.js';
import { fileBlobStore } from '../../src/domain/library/blobs.js';
import type { Clock } from '../../src/domain/context.js';
import { type GroupCommit, groupCommit } from '../../src/db/group-commit.js';
import type { ActivityLine } from '../../src/domain/activity/recorder.js';
import { type Sitegate, WRITES_PER_GROUP, createSitegate } from '../../src/runtime.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';
import { type Workspace, type WorkspaceOptions, makeWorkspace } from '../helpers/factory.js';
import type { Envelope } from '../helpers/server.js';

export type { Envelope, Workspace };

export type ToolKit = {
  readonly sg: Sitegate;
  readonly db: Db;
  /** A fresh slim workspace (test/helpers/factory.ts) in the file's database. */
  workspace(o?: WorkspaceOptions): Promise<Workspace>;
  /** One JSON-RPC tools/call with this bearer token; the envelope `{ ok, data?, error? }` it answered. */
  call(token: string, name: string, args?: Record<string, unknown>): Promise<Envelope>;
  /** Asserts the tool's contract (what tools/list shows, plus its output schema) matches its snapshot file. */
  expectContract(name: string): Promise<void>;
  /** Every row of these workspaces (see `workspaceRows`), to compare before and after a call. */
  rows(...companyIds: string[]): Promise<Record<string, unknown[]>>;
  /** The Activity lines of `tool` in this workspace, oldest first, once the buffered ones are written. */
  activity(companyId: string, tool: string): Promise<ActivityRow[]>;
  /**
   * Runs `act` (a call that must be refused), then asserts the refusal's code, that the rows of every
   * workspace named are as before, and that the refusal wrote one Activity line (denied, with the
   * code) in the first workspace: the caller's. Returns the envelope for further checks.
   */
  expectRefusal(
    code: string,
    act: () => Promise<Envelope>,
    opts: { tool: string; companyIds: [string, ...string[]] },
  ): Promise<Envelope>;
};

export type ActivityRow = { outcome: string; code: string | null; summary: string; websiteId: string | null };

/**
 * Tables whose rows a refusal may still touch: the refusal's own Activity line, and the connection's
 * "last used" that the Activity writer updates.
 */
const NOT_COMPARED = new Set(['activity', 'connections']);

/** The tables that hold a workspace's data: companies, and those with a company_id or a website_id column. */
const SCOPED_TABLES = (Object.values(schema) as unknown[])
  .filter((v): v is PgTable => is(v, PgTable))
  .map((table) => ({ table, config: getTableConfig(table) }))
  .filter(({ config }) => !NOT_COMPARED.has(config.name))
  .map(({ table, config }) => ({
    name: config.name,
    table,
    // The workspace's own row is keyed by its id.
    company: config.columns.find((c) => c.name === (config.name === 'companies' ? 'id' : 'company_id')),
    website: config.columns.find((c) => c.name === 'website_id'),
  }))
  .filter((t) => t.company || t.website);

/** Every row of the workspaces' tables, keyed by table name, in a stable order. */
export async function workspaceRows(db: Db, companyIds: string[]): Promise<Record<string, unknown[]>> {
  const sites = await db
    .select({ id: schema.websites.id })
    .from(schema.websites)
    .where(inArray(schema.websites.companyId, companyIds));
  const siteIds = sites.map((s) => s.id);
  const out: Record<string, unknown[]> = {};
  for (const t of SCOPED_TABLES) {
    const where = t.company ? inArray(t.company, companyIds) : inArray(t.website!, siteIds);
    if (!t.company && siteIds.length === 0) continue;
    const rows = (await db.select().from(t.table).where(where)) as Record<string, unknown>[];
    out[t.name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/**
 * The write groups of the kit's service, with every grouped call run as a group may run it
 * (src/db/group-commit.ts, docs/adding-a-tool.md): first inside a group beside a neighbour that fails
 * after it, which rolls the group back, then again alone. A tool whose run does something outside its
 * transaction or its `afterCommit` work (a second email, a second charge) does it twice here, and its
 * test sees it; so does a tool that cannot run again after a rollback.
 */
function inGroupFirst(sg: Sitegate): GroupCommit<ActivityLine> {
  const { activity, services } = sg.deps;
  // A line of undefined is the kit's own job's: nothing is recorded for it.
  const groups = groupCommit<ActivityLine | undefined>(services.db, {
    max: WRITES_PER_GROUP,
    beforeCommit: (tx, lines) => activity.recordIn(tx, ...lines.filter((l) => l !== undefined)),
  });
  return async (key, work) => {
    // The first job of a key runs alone; the two queued behind it in the same turn run together: the
    // call, then a neighbour that fails.
    const first = groups(key, async () => ({ value: undefined, line: undefined }));
    const call = groups(key, work);
    const neighbour = groups(key, async () => {
      throw new Error('the kit’s failing neighbour');
    }).catch(() => undefined);
    const [answer] = await Promise.all([call, first, neighbour]);
    return answer;
  };
}

/**
 * Registers the file's beforeAll/afterAll and returns the kit. Call at the top of a test file.
 * `clock`: the service's clock, for tools whose answer depends on the date.
 */
export function toolKit(opts: { clock?: Clock; env?: Record<string, string> } = {}): ToolKit {
  let sg: Sitegate | undefined;
  let host = '';
  const need = () => {
    if (!sg) throw new Error('toolKit(): use the kit inside tests (it starts in beforeAll)');
    return sg;
  };

  beforeAll(async () => {
    const database = await testDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-tool-'));
    // Never listened on: PORT only names the host the MCP edge accepts (its DNS-rebinding guard).
    const config = loadConfig({
      PORT: '3999',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      REDIS_URL: process.env.REDIS_URL ?? '',
      ...opts.env,
    });
    sg = await createSitegate(config, {
      database,
      clock: opts.clock,
      log: pino({ level: process.env.TEST_LOG ?? 'silent' }),
      limitPrefix: `test:${uniqueTag()}`,
      blobs: fileBlobStore(path.join(dataDir, 'blobs')),
      backgroundJobs: false,
    });
    sg.deps.writeGroups = inGroupFirst(sg);
    host = `127.0.0.1:${config.port}`;
  });
  afterAll(() => sg?.close());

  let id = 0;
  const kit: ToolKit = {
    get sg() {
      return need();
    },
    get db() {
      return need().deps.services.db;
    },
    workspace: (o) => makeWorkspace(need().deps.services.db, o),

    async call(token, name, args = {}) {
      id += 1;
      const res = await need().app.fetch(
        new Request(`http://${host}/api/mcp`, {
          method: 'POST',
          headers: {
            host,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name, arguments: args },
          }),
        }),
      );
      const text = await res.text();
      if (res.status !== 200) throw new Error(`tools/call ${name}: HTTP ${res.status} ${text}`);
      const body = JSON.parse(text) as {
        result?: { isError?: boolean; structuredContent?: Envelope; content?: Array<{ text?: string }> };
        error?: { code: number; message: string };
      };
      if (!body.result) throw new Error(`tools/call ${name}: JSON-RPC error ${JSON.stringify(body.error)}`);
      const env = body.result.structuredContent ?? { ok: false };
      return { ...env, isError: Boolean(body.result.isError), text: body.result.content?.[0]?.text };
    },

    async expectContract(name) {
      const t = need()
        .deps.registry.all()
        .find((x) => x.def.name === name);
      expect(t, `no tool named ${name}`).toBeDefined();
      const contract = {
        ...t!.listing,
        outputSchema: t!.outputSchema,
        scope: t!.def.scope,
        area: t!.def.area,
      };
      // Resolved against the test file, which lives beside this kit in test/tools/.
      await expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot(
        `../__snapshots__/tools/${name}.json`,
      );
    },

    rows: (...companyIds) => workspaceRows(need().deps.services.db, companyIds),

    async activity(companyId, tool) {
      await need().deps.activity.flush();
      const a = schema.activity;
      return kit.db
        .select({ outcome: a.outcome, code: a.code, summary: a.summary, websiteId: a.websiteId })
        .from(a)
        .where(and(eq(a.companyId, companyId), eq(a.tool, tool)))
        .orderBy(asc(a.id));
    },

    async expectRefusal(code, act, { tool, companyIds }) {
      const before = await kit.rows(...companyIds);
      const lines = await kit.activity(companyIds[0], tool);
      const env = await act();
      expect(env.ok).toBe(false);
      expect(env.isError).toBe(true);
      expect(env.error?.code).toBe(code);
      expect(await kit.rows(...companyIds)).toEqual(before);
      // One line more, the refusal's: denied, with its code.
      const after = await kit.activity(companyIds[0], tool);
      expect(after.slice(0, -1)).toEqual(lines);
      expect(after.at(-1)).toMatchObject({ outcome: 'denied', code });
      return env;
    },
  };
  return kit;
}
