// The write path's machinery, checked on the source (docs/architecture.md, "The write path"):
// - one seam for the driver: nothing outside src/db/session.ts replaces a method of a database client
//   (query, transaction, connect, release);
// - one way to open a transaction: src/db/transactions.ts, which takes the workspace locks first and
//   retries what PostgreSQL undid; nothing else calls `.transaction(`;
// - the one per-transaction cache (the locked section rows of src/domain/sections/store.ts) stays
//   true: every function that writes `sections`, other than saveSection's own statement, tells it so
//   (`sectionsChanged`) or goes through `insertSections`, which does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.js';
import { stripComments, writesIn } from '../helpers/table-writes.js';

const ROOT = path.resolve('src');
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');
const files = sources(ROOT).map((f) => ({ rel: rel(f), text: stripComments(readFileSync(f, 'utf8')) }));

const DRIVER_PATCH = /\.(query|transaction|connect|release)\s*=(?!=)/g;
const OPENS_TRANSACTION = /\.transaction\(/g;

/** Top-level declarations of a file (each a function or a constant), by the line each starts on. */
function declarations(text: string): Array<{ name: string; body: string }> {
  const out: Array<{ name: string; body: string }> = [];
  const starts = [...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)/gm)];
  for (const [i, m] of starts.entries()) {
    out.push({ name: m[1]!, body: text.slice(m.index, starts[i + 1]?.index ?? text.length) });
  }
  return out;
}

/** The declarations that write `sections` without telling the section cache. */
function uncachedSectionWriters(file: string, text: string): string[] {
  return declarations(text)
    .filter((d) => writesIn(file, d.body).some((w) => w.table === 'sections'))
    .filter((d) => !/\bsectionsChanged\(/.test(d.body))
    .map((d) => `${file}: ${d.name}`);
}

describe('the write path', () => {
  it('nothing outside src/db/session.ts replaces a method of a database client', () => {
    const patched = files
      .filter((f) => f.rel !== 'db/session.ts')
      .flatMap((f) => [...f.text.matchAll(DRIVER_PATCH)].map((m) => `${f.rel}: .${m[1]} =`));
    expect(patched).toEqual([]);
    expect(DRIVER_PATCH.test('(client as { query: unknown }).query = (...a) => a')).toBe(true);
  });

  it('transactions are opened by src/db/transactions.ts alone (and the seam under it)', () => {
    const opened = files
      .filter((f) => !['db/transactions.ts', 'db/session.ts'].includes(f.rel))
      .filter((f) => OPENS_TRANSACTION.test(f.text))
      .map((f) => f.rel);
    // The embedded database's backup holds PGlite's own lock while it dumps the files: not a Drizzle
    // transaction, and no row of any workspace is touched.
    expect(opened).toEqual(['ops/backup.ts']);
  });

  it('every writer of sections keeps the transaction’s section cache true', () => {
    const found = files.flatMap((f) => uncachedSectionWriters(f.rel, f.text));
    expect(found.sort()).toEqual([
      // The demo's fixture, written in one go into a fresh database: no transaction has read a section.
      'demo/seed.ts: addPage',
      'demo/seed.ts: seedDemo',
      // saveSection's statement writes the row it then remembers, as saved, in the cache.
      'domain/sections/store.ts: buildSave',
    ]);
  });

  it('finds a writer of sections that forgets the cache, and passes one that does not', () => {
    const forgets = 'export async function wipe(tx) {\n  await tx.delete(sections).where(x);\n}\n';
    const tells =
      'export async function wipe(tx) {\n  sectionsChanged(tx);\n  await tx.delete(sections);\n}\n';
    const sql = 'const move = (tx) => tx.execute(sql`update sections set position = 0`);\n';
    expect(uncachedSectionWriters('x.ts', forgets + tells + sql)).toEqual(['x.ts: wipe', 'x.ts: move']);
  });
});
