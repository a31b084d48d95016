// One path for each write, checked on the source. The domain (src/domain/) is the only writer of the
// business tables: plan kinds, the importer (src/portable/) and the migrator (src/migrate/) decide what
// to write and call the domain to write it. Every insert, update and delete outside src/domain/, in
// Drizzle (`.insert(table)`, `.update(table)`, `.delete(table)`) or in SQL text, must be on the short
// allow-list below, which names the tables whose records belong to another layer and why.
// Inside the domain, a website (with its owner and brand) is created only by insertSite, which re-checks
// the plan's site limit with the company row locked (behaviour: test/business/site-limit.test.ts);
// pages, sections and library assets each have one inserting function; the draft revision moves only
// through the one bump statement, which saveSection embeds in its single save.
// The same holds for protocol answers: tools/list and tools/call are computed by src/mcp/tool-answers.ts,
// which the SDK's handlers and the endpoint's direct answers to plain 2025 requests both call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';
import { TABLES, type Write, stripComments, writesIn } from '../helpers/table-writes.js';

const ROOT = path.resolve('src');
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');
const files = sources(ROOT).map((f) => ({ rel: rel(f), text: readFileSync(f, 'utf8') }));

const WRITES = files.flatMap((f) => writesIn(f.rel, f.text));

/**
 * Writes that belong outside the domain: where (a folder ending in "/" or a file) may write which
 * tables, and why. A table not named here is a business table, written only in src/domain/.
 */
const ALLOWED: ReadonlyArray<{ where: string; tables: readonly string[] | 'all'; why: string }> = [
  {
    where: 'auth/',
    tables: ['connections', 'pairings', 'deliveryTokens', 'webSessions', 'oidcModels', 'idpKeys'],
    why: 'credentials and sign-in state: tokens, pairings, OAuth records and sessions belong to src/auth',
  },
  {
    where: 'web/session.ts',
    tables: ['webSessions'],
    why: 'the web app opens and closes its own sign-in session cookie',
  },
  {
    where: 'plans/',
    tables: ['pendingActions'],
    why: 'the reviewed-plan rail keeps its own records (created, approved, used once); what a plan does goes through the domain',
  },
  {
    where: 'cli/serve.ts',
    tables: ['demoSeed'],
    why: 'a marker that the demo workspace was seeded into this database, written once at start',
  },
  {
    where: 'demo/seed.ts',
    tables: 'all',
    why: 'the demo workspace: a fixed fixture written in one go into a fresh database; no caller input reaches it',
  },
];

const allowed = (w: Write) =>
  ALLOWED.some(
    (a) =>
      (a.where.endsWith('/') ? w.file.startsWith(a.where) : w.file === a.where) &&
      (a.tables === 'all' || a.tables.includes(w.table)),
  );

const show = (w: Write) => `${w.file}: ${w.op} ${w.table}`;

describe('the domain is the only writer of business tables', () => {
  it('finds Drizzle and SQL writes, and ignores reads, comments and non-tables', () => {
    const found = writesIn(
      'x.ts',
      [
        'await ctx.tx.update(products).set({ status: "public" });',
        'await db.delete(t.pages).where(x);',
        'await tx\n  .insert(assets)\n  .values(rows);',
        `sql\`update $\{websites} set name = 1\`; sql\`INSERT INTO "sections" (id) values (1)\`;`,
        'sql`delete from restore_points where id = 1`;',
        '// update websites in a comment',
        'tx.select().from(products); cipher.update(body); map.delete(key); title: "Update section text"',
      ].join('\n'),
    ).map(show);
    expect(found.sort()).toEqual(
      [
        'x.ts: update products',
        'x.ts: delete pages',
        'x.ts: insert assets',
        'x.ts: update websites',
        'x.ts: insert sections',
        'x.ts: delete restorePoints',
      ].sort(),
    );
  });

  it('no insert, update or delete of a business table outside src/domain/', () => {
    const outside = WRITES.filter((w) => !w.file.startsWith('domain/'));
    expect(outside.length).toBeGreaterThan(10); // the scan sees the allowed writes
    expect(outside.filter((w) => !allowed(w)).map(show)).toEqual([]);
  });

  it('every allow-list entry names real tables and is still needed', () => {
    for (const a of ALLOWED) {
      if (a.tables !== 'all') for (const t of a.tables) expect(TABLES.has(t), t).toBe(true);
      const used = WRITES.some(
        (w) =>
          (a.where.endsWith('/') ? w.file.startsWith(a.where) : w.file === a.where) &&
          (a.tables === 'all' || a.tables.includes(w.table)),
      );
      expect(used, a.where).toBe(true);
    }
  });
});

/** The files outside the demo seed that insert into `table`. */
const inserting = (table: string) =>
  [...new Set(WRITES.filter((w) => w.op === 'insert' && w.table === table).map((w) => w.file))]
    .filter((f) => f !== 'demo/seed.ts')
    .sort();

describe('one path per write inside the domain', () => {
  it('websites and brands are created only by the domain’s one site-creation function', () => {
    expect(inserting('websites')).toEqual(['domain/workspace/create-site.ts']);
    expect(inserting('brands')).toEqual(['domain/workspace/create-site.ts']);
    // Members are also added when an invitation is accepted; a site's first owner only with the site.
    expect(inserting('websiteMembers')).toEqual([
      'domain/access/accept.ts',
      'domain/workspace/create-site.ts',
    ]);
  });

  it('pages, sections and library assets each have one inserting function', () => {
    expect(inserting('pages')).toEqual(['domain/pages/insert.ts']);
    expect(inserting('sections')).toEqual(['domain/sections/store.ts']);
    expect(inserting('assets')).toEqual(['domain/library/assets.ts']);
  });

  it('the draft revision is set only by the one bump statement', () => {
    // A write of the column: `draftRev: <anything but a read of it>` or `draft_rev =` in SQL text.
    const setting = files
      .filter(
        (f) =>
          /\bdraftRev\s*:\s*(?=\S)(?!websites\.draftRev\b|integer\()/.test(stripComments(f.text)) ||
          /\bdraft_rev\s*=/.test(stripComments(f.text)),
      )
      .map((f) => f.rel);
    expect(setting).toEqual(['domain/sites/draft-revision.ts']);
  });
});

it('tools/list and tools/call are answered in one place, for the SDK’s handlers and the direct path alike', () => {
  const calling = (pattern: RegExp) =>
    files
      .filter((f) => pattern.test(f.text))
      .map((f) => f.rel.split(path.sep).join('/'))
      .sort();
  // The listing and the call with its special cases (unbound clients, unknown tools, approvals);
  // resources/read runs its tool through callTool as well, and so does an MCP App's view, after the
  // call it belongs to (tool-answers.ts hands the answer to mcp/apps/apps.ts).
  expect(calling(/\.listFor\(/)).toEqual(['mcp/tool-answers.ts']);
  expect(calling(/(?<![.\w]|function )callTool\(/)).toEqual([
    'mcp/apps/apps.ts',
    'mcp/resources.ts',
    'mcp/tool-answers.ts',
  ]);
  expect(calling(/(approvalAnswer|unboundAnswer)\(/)).toEqual(['mcp/human-steps.ts', 'mcp/tool-answers.ts']);
});
