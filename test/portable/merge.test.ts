// import_site with mergeIntoWebsiteId (R-IMP-4): new sections inserted, unedited matches updated,
// app-edited ones kept as conflicts unless forced, config/theme/fonts untouched, a restore point that
// brings back the pre-merge state, and the gate run for the target website.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { pages, restorePoints, sections, websiteMembers, websites } from '../../src/db/schema.js';
import { exportSite } from '../../src/portable/export.js';
import { restoreFromPoint } from '../../src/domain/sites/restore.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const text = (key: string, body: string) => ({ externalKey: key, type: 'text', content: { body } });
const site = (
  over: Record<string, unknown> = {},
  home = [text('k1', 'one'), text('k2', 'two'), text('k3', 'three')],
) => ({
  version: 1,
  name: 'Merge me',
  businessName: 'Merge Co',
  config: { locale: 'en' },
  theme: { preset: 'warm' },
  fonts: { body: 'Inter' },
  pages: [{ slug: 'home', title: 'Home', sections: home }],
  ...over,
});

async function imported(demo: Demo) {
  const r = await s.call(demo.tokens.workspace, 'import_site', {
    websiteId: demo.websites.main,
    site: site(),
  });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  return r.data!.websiteId as string;
}

const db = () => s.sg.deps.services.db;
async function sectionByKey(websiteId: string, key: string) {
  const [row] = await db()
    .select()
    .from(sections)
    .where(and(eq(sections.websiteId, websiteId), eq(sections.externalKey, key)));
  return row;
}
/** An edit in the app, made through the real tool a client would call (update_section_text). */
async function editInApp(demo: Demo, websiteId: string, key: string, body: string) {
  const row = await sectionByKey(websiteId, key);
  const r = await s.call(demo.tokens.workspace, 'update_section_text', {
    websiteId,
    pageId: row!.pageId,
    sectionId: row!.id,
    text: { body },
  });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
}

const changed = () =>
  site({
    name: 'Renamed',
    config: { locale: 'fr', extra: true },
    theme: { preset: 'cold' },
    fonts: { body: 'Comic' },
    pages: [
      {
        slug: 'home',
        title: 'Home',
        sections: [text('k1', 'one v2'), text('k2', 'two v2'), text('k3', 'three'), text('k4', 'four')],
      },
      { slug: 'extra', title: 'Extra', sections: [text('k5', 'five')] },
    ],
  });

describe('import_site merge', () => {
  it('inserts new sections, updates unedited ones, keeps app-edited ones as conflicts, never touches config/theme/fonts', async () => {
    const demo = await s.seed();
    const id = await imported(demo);
    await editInApp(demo, id, 'k2', 'edited in the app');
    const [before] = await db().select().from(websites).where(eq(websites.id, id));

    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.data).toMatchObject({ websiteId: id, mode: 'merged' });
    expect(r.data!.merge).toMatchObject({
      inserted: 2,
      updated: 1,
      unchanged: 1,
      conflicts: ['k2'],
      forced: [],
      newPages: 1,
    });

    expect((await sectionByKey(id, 'k1'))!.content).toEqual({ body: 'one v2' });
    expect((await sectionByKey(id, 'k1'))!.rev).toBe(2);
    expect((await sectionByKey(id, 'k2'))!.content).toEqual({ body: 'edited in the app' });
    expect((await sectionByKey(id, 'k3'))!.rev).toBe(1);
    const k4 = await sectionByKey(id, 'k4');
    expect(k4).toMatchObject({ content: { body: 'four' }, position: 3 });
    const extra = await db()
      .select()
      .from(pages)
      .where(and(eq(pages.websiteId, id), eq(pages.slug, 'extra')));
    expect(extra).toHaveLength(1);
    expect((await sectionByKey(id, 'k5'))!.pageId).toBe(extra[0]!.id);

    const [after] = await db().select().from(websites).where(eq(websites.id, id));
    expect({ name: after!.name, config: after!.config, theme: after!.theme, fonts: after!.fonts }).toEqual({
      name: before!.name,
      config: before!.config,
      theme: before!.theme,
      fonts: before!.fonts,
    });
    // A second identical merge changes nothing but still reports the conflict.
    const again = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(again.data!.merge).toMatchObject({ inserted: 0, updated: 0, unchanged: 4, conflicts: ['k2'] });
  });

  it('a section hidden or laid out in the app counts as edited: kept and reported as a conflict', async () => {
    const demo = await s.seed();
    const id = await imported(demo);
    const k1 = await sectionByKey(id, 'k1');
    const k3 = await sectionByKey(id, 'k3');
    const hide = await s.call(demo.tokens.workspace, 'set_section_hidden', {
      websiteId: id,
      pageId: k1!.pageId,
      sectionId: k1!.id,
      hidden: true,
    });
    expect(hide.ok, JSON.stringify(hide.error)).toBe(true);
    const lay = await s.call(demo.tokens.workspace, 'set_section_layout', {
      websiteId: id,
      pageId: k3!.pageId,
      sectionId: k3!.id,
      layout: { width: 'wide', paddingY: 'lg' },
    });
    expect(lay.ok, JSON.stringify(lay.error)).toBe(true);

    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.data!.merge.conflicts.sort()).toEqual(['k1', 'k3']);
    expect(await sectionByKey(id, 'k1')).toMatchObject({ hidden: true, content: { body: 'one' } });
    expect((await sectionByKey(id, 'k3'))!.layout).toMatchObject({ width: 'wide', paddingY: 'lg' });

    // Forced, they take the import's state (visible, empty layout) and count as unedited afterwards.
    const forced = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
      forceKeys: ['k1', 'k3'],
    });
    expect(forced.data!.merge).toMatchObject({ conflicts: [], forced: ['k1', 'k3'] });
    expect(await sectionByKey(id, 'k1')).toMatchObject({ hidden: false, content: { body: 'one v2' } });
    const again = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(again.data!.merge).toMatchObject({ conflicts: [], updated: 0 });
  });

  it('overwrites an app-edited section listed in forceKeys, and treats it as unedited afterwards', async () => {
    const demo = await s.seed();
    const id = await imported(demo);
    await editInApp(demo, id, 'k2', 'edited in the app');
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
      forceKeys: ['k2'],
    });
    expect(r.data!.merge).toMatchObject({ updated: 2, conflicts: [], forced: ['k2'] });
    expect((await sectionByKey(id, 'k2'))!.content).toEqual({ body: 'two v2' });
    const next = changed();
    (next.pages as Array<{ sections: Array<{ content: unknown }> }>)[0]!.sections[1]!.content = {
      body: 'two v3',
    };
    const r2 = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: next,
    });
    expect(r2.data!.merge).toMatchObject({ updated: 1, conflicts: [] });
    expect((await sectionByKey(id, 'k2'))!.content).toEqual({ body: 'two v3' });
  });

  it('takes a restore point first, and restoreFromPoint brings back the exact pre-merge draft', async () => {
    const demo = await s.seed();
    const id = await imported(demo);
    await editInApp(demo, id, 'k2', 'edited in the app');
    const before = await exportSite(db(), id, s.url);
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
      forceKeys: ['k2'],
    });
    const pointId = r.data!.merge.restorePointId as string;
    const [point] = await db().select().from(restorePoints).where(eq(restorePoints.id, pointId));
    expect(point).toMatchObject({ websiteId: id, reason: 'before import merge' });
    expect(await exportSite(db(), id, s.url)).not.toEqual(before);
    await db().transaction((tx) => restoreFromPoint(tx, id, pointId));
    expect(await exportSite(db(), id, s.url)).toEqual(before);
    // A restore point of another website is not found.
    await expect(restoreFromPoint(db(), demo.websites.events, pointId)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('merges into the demo site without touching its app-made sections', async () => {
    const demo = await s.seed();
    const before = await db().select().from(sections).where(eq(sections.websiteId, demo.websites.main));
    const r = await s.call(demo.tokens.default, 'import_site', {
      mergeIntoWebsiteId: demo.websites.main,
      site: site(),
    });
    expect(r.data!.merge).toMatchObject({ inserted: 3, conflicts: [] });
    const after = await db().select().from(sections).where(eq(sections.websiteId, demo.websites.main));
    expect(after).toHaveLength(before.length + 3);
    for (const b of before) expect(after.find((a) => a.id === b.id)).toEqual(b);
  });

  it('runs the gate for the target: no edit access means a refusal and nothing written', async () => {
    const demo = await s.seed();
    const id = await imported(demo); // owned by the owner only
    const points = async () => Number((await db().select({ n: count() }).from(restorePoints))[0]?.n ?? 0);
    const n0 = await points();
    const snapshot = await exportSite(db(), id, s.url);

    // A single-site connection naming another site learns nothing.
    const single = await s.call(demo.tokens.default, 'import_site', {
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(single.error?.code).toBe('not_found');
    // Another tenant's site.
    const foreign = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: demo.websites.otherTenant,
      site: changed(),
    });
    expect(foreign.error?.code).toBe('not_found');
    // The connection's creator is only a viewer on the target now (live role, checked by the gate).
    await db()
      .update(websiteMembers)
      .set({ role: 'viewer' })
      .where(and(eq(websiteMembers.websiteId, id), eq(websiteMembers.userId, demo.users.owner.id)));
    const viewerTarget = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(viewerTarget.error?.code).toBe('role_insufficient');
    // No role at all on the target.
    await db()
      .delete(websiteMembers)
      .where(and(eq(websiteMembers.websiteId, id), eq(websiteMembers.userId, demo.users.owner.id)));
    const noRole = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      mergeIntoWebsiteId: id,
      site: changed(),
    });
    expect(noRole.error?.code).toBe('role_insufficient');

    expect(await points()).toBe(n0);
    expect(await exportSite(db(), id, s.url)).toEqual(snapshot);
  });
});
