// Reads back everything a content tool could write for one website, to prove refusals wrote nothing.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { pages, sections, websites } from '../../src/db/schema.js';
import { liveSnapshot } from '../helpers/live.js';

export async function siteState(db: Db, websiteId: string): Promise<string> {
  const [site] = await db
    .select({ draftRev: websites.draftRev, updatedAt: websites.updatedAt })
    .from(websites)
    .where(eq(websites.id, websiteId));
  const live = await liveSnapshot(db, websiteId);
  const p = await db.select().from(pages).where(eq(pages.websiteId, websiteId)).orderBy(asc(pages.id));
  const s = await db
    .select()
    .from(sections)
    .where(eq(sections.websiteId, websiteId))
    .orderBy(asc(sections.id));
  return JSON.stringify({ site, live, p, s });
}

export async function sectionRow(db: Db, id: string) {
  const [row] = await db.select().from(sections).where(eq(sections.id, id));
  return row!;
}

export async function draftRev(db: Db, websiteId: string): Promise<number> {
  const [row] = await db.select({ r: websites.draftRev }).from(websites).where(eq(websites.id, websiteId));
  return row!.r;
}
