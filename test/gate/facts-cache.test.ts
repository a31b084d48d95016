// The gate's cached facts: a content write leaves them cached, so the next write does not
// read them again, while a change to who may act (an area withheld, a role changed, the website moved
// to another workspace, deleted by its owner) is decided on fresh facts at the very next call. Runs on PGlite (change feed)
// and, with DATABASE_URL, on PostgreSQL (workspace versions).
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { callerForToken } from '../../src/auth/connections.js';
import type { Database } from '../../src/db/client.js';
import { companies, websiteMembers, websites } from '../../src/db/schema.js';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import { updateSectionText } from '../../src/domain/sections/edit.js';
import { type GateFactsCache, authorize } from '../../src/gate/authorize.js';
import { Refusal } from '../../src/kernel/errors.js';
import { type Caches, createCaches } from '../../src/mcp/caches.js';
import { update_section_text } from '../../src/mcp/tools/content.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

let database: Database;
let caches: Caches;
beforeAll(async () => {
  database = await testDatabase();
  caches = createCaches(database.feed, database.cacheVersion);
});

/** The gate's cache, counting the times it had to read the facts from the database. */
function counting(cache: GateFactsCache) {
  const counted = {
    reads: 0,
    get: ((key, load, version) =>
      cache.get(
        key,
        () => {
          counted.reads += 1;
          return load();
        },
        version,
      )) as GateFactsCache['get'],
  };
  return counted;
}

/** One update_section_text through the gate, as the call path makes it: caller, facts, then the edit. */
async function edit(d: Demo, gate: ReturnType<typeof counting>, heading: string) {
  const caller = await callerForToken(database.db, d.tokens.default);
  if (!caller) throw new Error('the demo token did not authenticate');
  return database.db.transaction(async (tx) => {
    const { website, role } = await authorize(tx, caller, update_section_text, undefined, gate);
    return updateSectionText(
      {
        tx,
        now: new Date(),
        actor: { userId: caller.creatorId, companyId: caller.companyId, connectionId: caller.connectionId },
        services: undefined as never, // updateSectionText uses none
        progress: async () => {},
        website,
        role,
      },
      { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading } },
    );
  });
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'allowed';
  } catch (err) {
    if (err instanceof Refusal) return err.code;
    throw err;
  }
}

it('a write after a write uses the facts the first one read; an agency withholding the area is seen at once', async () => {
  const d = await seedDemo(database.db, { tag: uniqueTag() });
  const gate = counting(caches.gate);
  const first = await edit(d, gate, 'One');
  expect(gate.reads).toBe(1);
  // The edit raised the draft revision (a content change): the facts are still the cached ones.
  const second = await edit(d, gate, 'Two');
  expect(second.draftRevision).toBe(first.draftRevision + 1);
  expect(gate.reads).toBe(1);

  await database.db
    .update(companies)
    .set({ withheldAreas: ['content'] })
    .where(eq(companies.id, d.companyId));
  expect(await refusal(edit(d, gate, 'Three'))).toBe('area_disabled');
  expect(gate.reads).toBe(2);
  const [hero] = await database.db.select().from(websites).where(eq(websites.id, d.websites.main));
  expect(hero!.draftRev).toBe(second.draftRevision); // the refused edit wrote nothing
});

it('a role lowered after writes is decided on fresh facts', async () => {
  const d = await seedDemo(database.db, { tag: uniqueTag() });
  const gate = counting(caches.gate);
  await edit(d, gate, 'One');
  await edit(d, gate, 'Two');
  await database.db
    .update(websiteMembers)
    .set({ role: 'viewer' })
    .where(eq(websiteMembers.websiteId, d.websites.main));
  expect(await refusal(edit(d, gate, 'Three'))).toBe('role_insufficient');
});

it('a website moved to another workspace after writes is not found by the next call', async () => {
  const d = await seedDemo(database.db, { tag: uniqueTag() });
  const other = await seedDemo(database.db, { tag: uniqueTag() });
  const gate = counting(caches.gate);
  await edit(d, gate, 'One');
  await edit(d, gate, 'Two');
  const before = gate.reads;
  await database.db
    .update(websites)
    .set({ companyId: other.companyId })
    .where(eq(websites.id, d.websites.main));
  expect(await refusal(edit(d, gate, 'Three'))).toBe('not_found');
  expect(gate.reads).toBe(before + 1);
});

it('a website deleted (or restored) by its owner after writes is decided on fresh facts at the next call', async () => {
  const d = await seedDemo(database.db, { tag: uniqueTag() });
  const gate = counting(caches.gate);
  await edit(d, gate, 'One');
  await edit(d, gate, 'Two');
  const before = gate.reads;
  const mark = (deletedAt: Date | null) =>
    database.db.update(websites).set({ deletedAt }).where(eq(websites.id, d.websites.main));
  await mark(new Date());
  expect(await refusal(edit(d, gate, 'Three'))).toBe('not_found');
  expect(gate.reads).toBe(before + 1);
  await mark(null);
  await edit(d, gate, 'Four');
  expect(gate.reads).toBe(before + 2);
});
