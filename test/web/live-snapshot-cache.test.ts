// The live site is served from a parsed copy of its published snapshot kept per process
// (src/domain/sites/view.ts), named by the snapshot's revision and the time it went live: each publish,
// unpublish and republish shows at the next request, here and in a second Sitegate on the same database
// (what another process sees), and the shared copy cannot be changed by a request that reads it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { websites } from '../../src/db/schema.js';
import { loadSiteView } from '../../src/domain/sites/view.js';
import { publishDraft, unpublishSite } from '../../src/domain/sites/publish.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { liveSnapshot } from '../helpers/live.js';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startTestServer({ seed: false });
  b = await startTestServer({ seed: false, database: a.sg.database });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const db = () => a.sg.deps.services.db;
const live = async (s: TestServer, websiteId: string) => {
  const r = await fetch(`${s.url}/sites/${websiteId}/`);
  return { status: r.status, html: await r.text() };
};

it('each publish, unpublish and republish shows at the next request on both servers', async () => {
  const d = await a.seed();
  const site = d.websites.main;
  const hero = { pageId: d.pages.home, sectionId: d.sections.hero };
  const heading = async (text: string) => {
    const r = await a.call(d.tokens.all, 'update_section_text', { ...hero, text: { heading: text } });
    expect(r.ok).toBe(true);
  };
  const publish = () => db().transaction((tx) => publishDraft(tx, site, new Date()));

  await heading('First loaves');
  await publish();
  for (const s of [a, b]) expect((await live(s, site)).html).toContain('First loaves');

  await heading('Second loaves');
  for (const s of [a, b]) expect((await live(s, site)).html).toContain('First loaves'); // not live yet
  await publish();
  for (const s of [b, a]) {
    const page = await live(s, site);
    expect(page.html).toContain('Second loaves');
    expect(page.html).not.toContain('First loaves');
  }

  await db().transaction((tx) => unpublishSite(tx, site, new Date()));
  for (const s of [a, b]) expect((await live(s, site)).status).toBe(404);
  // Live again at the same draft revision: a snapshot of its own, served again.
  await publish();
  for (const s of [a, b]) expect((await live(s, site)).html).toContain('Second loaves');
  const [row] = await db()
    .select({ rev: websites.publishedRev, draft: websites.draftRev })
    .from(websites)
    .where(eq(websites.id, site));
  expect(row!.rev).toBe(row!.draft);
});

it('the shared pages cannot be changed by a request that reads them', async () => {
  const d = await a.seed();
  await db().transaction((tx) => publishDraft(tx, d.websites.main, new Date()));
  const view = await loadSiteView(db(), d.websites.main, 'published');
  const home = view!.pages[0]!;
  expect(() => {
    (home as { title: string }).title = 'Changed by a reader';
  }).toThrow(TypeError);
  expect(() => {
    (home.sections as unknown[]).push({});
  }).toThrow(TypeError);
  const again = await loadSiteView(db(), d.websites.main, 'published');
  expect(again!.pages[0]!.title).toBe(home.title);
  expect(again!.pages[0]!.title).not.toBe('Changed by a reader');
});

it('after a publish, reads the pages that changed and keeps the others as parsed before', async () => {
  const d = await a.seed();
  const site = d.websites.main;
  const page = await a.call(d.tokens.all, 'create_page', { title: 'Opening hours' });
  expect(page.ok).toBe(true);
  const added = await a.call(d.tokens.all, 'add_section', {
    pageId: page.data!.pageId,
    type: 'text',
    content: { body: 'Weekdays 6 to 6.' },
  });
  expect(added.ok).toBe(true);
  const publish = () => db().transaction((tx) => publishDraft(tx, site, new Date()));
  await publish();
  const first = (await loadSiteView(db(), site, 'published'))!.pages;
  const edit = await a.call(d.tokens.all, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: 'Rye on Fridays' },
  });
  expect(edit.ok).toBe(true);
  await publish();
  const second = (await loadSiteView(db(), site, 'published'))!.pages;
  // What a process that never parsed the earlier snapshot reads: the same pages, in the same order.
  const live = await liveSnapshot(db(), site);
  expect(JSON.parse(JSON.stringify(second))).toEqual(live!.pages.map((p) => JSON.parse(JSON.stringify(p))));
  expect(JSON.stringify(second)).toContain('Rye on Fridays');
  // The page that did not change is the very page parsed before; the edited one was read again.
  const before = new Map(first.map((p) => [p.id, p]));
  expect(second.find((p) => p.id === page.data!.pageId)).toBe(before.get(page.data!.pageId as string));
  expect(second.find((p) => p.id === d.pages.home)).not.toBe(before.get(d.pages.home));
});
