// A group's edits of one website in one transaction (src/db/group-commit.ts): each edit answers the rev
// and draft revision it would have had alone, a read in the same transaction sees every edit, fields not
// patched keep their value, and a rollback keeps none. A section the transaction has locked and saved is
// not read again (the transaction's section cache, src/domain/sections/store.ts): each edit is one
// statement, its own row update.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { type Demo, seedDemo } from '../../src/demo/seed.js';
import type { Db } from '../../src/db/client.js';
import { sections, websites } from '../../src/db/schema.js';
import type { Services } from '../../src/domain/context.js';
import { setSectionHidden, setSectionLayout, updateSectionText } from '../../src/domain/sections/edit.js';
import { uniqueTag } from '../helpers/db.js';
import { inSite, testServices } from '../helpers/domain.js';

let services: Services;
let d: Demo;
beforeAll(async () => {
  services = await testServices();
  d = await seedDemo(services.db, { tag: uniqueTag() });
});

const who = () => ({ companyId: d.companyId, websiteId: d.websites.main, userId: d.users.owner.id });
const section = async (db: Db, id: string) =>
  (await db.select().from(sections).where(eq(sections.id, id)))[0]!;
const draftRev = async (db: Db) =>
  (await db.select({ rev: websites.draftRev }).from(websites).where(eq(websites.id, d.websites.main)))[0]!
    .rev;
/** Rows of `sections` this transaction has updated so far, by PostgreSQL's own count (compare two). */
const sectionUpdates = async (tx: Db) =>
  Number(
    (
      (await tx.execute(
        sql`select coalesce(sum(n_tup_upd), 0)::int as n from pg_stat_xact_user_tables where relname = 'sections'`,
      )) as { rows: { n: number }[] }
    ).rows[0]!.n,
  );

it('edits in one transaction: each answered as if alone, each one row update, all seen by a read', async () => {
  const hero = { pageId: d.pages.home, sectionId: d.sections.hero };
  const intro = { pageId: d.pages.home, sectionId: d.sections.intro };
  const heroBefore = await section(services.db, d.sections.hero);
  const introBefore = await section(services.db, d.sections.intro);
  const revBefore = await draftRev(services.db);
  let updatedInTx = -1;
  const answers = await inSite(services, who(), async (ctx) => {
    const updatedBefore = await sectionUpdates(ctx.tx);
    const out = [
      await updateSectionText(ctx, { ...hero, text: { heading: 'One' } }),
      await updateSectionText(ctx, { ...hero, text: { heading: 'Two' } }),
      await setSectionHidden(ctx, { ...hero, hidden: true }),
      await setSectionLayout(ctx, { ...hero, layout: { width: 'wide' } }),
    ];
    // Four saves, four row updates; a read in the transaction sees the last of each field.
    const seen = await section(ctx.tx, d.sections.hero);
    updatedInTx = (await sectionUpdates(ctx.tx)) - updatedBefore;
    expect(seen).toMatchObject({ hidden: true, layout: { width: 'wide' }, rev: heroBefore.rev + 4 });
    expect(seen.content).toMatchObject({ heading: 'Two' });
    out.push(await updateSectionText(ctx, { ...intro, text: { heading: 'Intro one' } }));
    out.push(await updateSectionText(ctx, { ...hero, text: { heading: 'Three' } }));
    return out;
  });
  expect(updatedInTx).toBe(4);
  expect(answers.map((a) => a.draftRevision)).toEqual([1, 2, 3, 4, 5, 6].map((n) => revBefore + n));
  expect(answers.map((a) => a.rev)).toEqual([
    heroBefore.rev + 1,
    heroBefore.rev + 2,
    heroBefore.rev + 3,
    heroBefore.rev + 4,
    introBefore.rev + 1,
    heroBefore.rev + 5,
  ]);
  expect(await draftRev(services.db)).toBe(revBefore + 6);
  const heroAfter = await section(services.db, d.sections.hero);
  expect(heroAfter).toMatchObject({ hidden: true, layout: { width: 'wide' }, rev: heroBefore.rev + 5 });
  // Fields not patched keep their value; the heading is the last one written.
  expect(heroAfter.content).toEqual({ ...heroBefore.content, heading: 'Three' });
  expect(heroAfter.position).toBe(heroBefore.position);
  expect((await section(services.db, d.sections.intro)).content).toMatchObject({ heading: 'Intro one' });
});

it('a refusal after edits in the same transaction rolls them back with the rest', async () => {
  const hero = { pageId: d.pages.home, sectionId: d.sections.hero };
  const before = await section(services.db, d.sections.hero);
  const revBefore = await draftRev(services.db);
  await expect(
    inSite(services, who(), async (ctx) => {
      await updateSectionText(ctx, { ...hero, text: { heading: 'Kept?' } });
      await updateSectionText(ctx, { ...hero, text: { heading: 'Also kept?' } });
      await updateSectionText(ctx, { ...hero, text: { nosuchfield: 'x' } });
    }),
  ).rejects.toMatchObject({ code: 'invalid_input' });
  expect(await section(services.db, d.sections.hero)).toEqual(before);
  expect(await draftRev(services.db)).toBe(revBefore);
});
