// Editing the draft by hand in the console: a section's form drawn from its type's schema saves through
// the tools' own domain function (same validation, same revisions: an agent sees the owner's words at
// its next call, and the publish review lists the change), lists gain and lose items, Markdown is shown
// as the site shows it, sections are added, moved, hidden and shown, pages added, search texts saved,
// images uploaded into the library. Every refusal (content not accepted, a form older than the draft,
// another tenant's ids, an editor, no CSRF token, a file that is not an image) writes nothing.
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, assets, pages, sections, websites } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);
const site = (d: Demo) => `/dashboard/sites/${d.websites.main}`;
const sectionUrl = (d: Demo, pageId: string, sectionId: string) =>
  `${site(d)}/pages/${pageId}/sections/${sectionId}`;

/** Everything an edit could write: the site's sections, pages, draft revision, Activity and library. */
async function written(websiteId: string) {
  const secs = await db()
    .select({
      id: sections.id,
      rev: sections.rev,
      content: sections.content,
      hidden: sections.hidden,
      position: sections.position,
    })
    .from(sections)
    .where(eq(sections.websiteId, websiteId))
    .orderBy(sections.id);
  const pgs = await db()
    .select({ id: pages.id, seoTitle: pages.seoTitle, seoDescription: pages.seoDescription })
    .from(pages)
    .where(eq(pages.websiteId, websiteId))
    .orderBy(pages.id);
  const [w] = await db().select({ rev: websites.draftRev }).from(websites).where(eq(websites.id, websiteId));
  const [lines] = await db().select({ n: count() }).from(activity).where(eq(activity.websiteId, websiteId));
  const [lib] = await db().select({ n: count() }).from(assets).where(eq(assets.websiteId, websiteId));
  return { secs, pgs, draftRev: w!.rev, lines: lines!.n, library: lib!.n };
}

const ownerLines = async (websiteId: string, tool: string) =>
  db()
    .select({ summary: activity.summary })
    .from(activity)
    .where(and(eq(activity.websiteId, websiteId), eq(activity.tool, tool), isNull(activity.connectionId)));

/** A 1×1 PNG made by sharp, as a browser would send it. */
async function png(): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  return new Uint8Array(
    await sharp({ create: { width: 3, height: 2, channels: 3, background: '#cc3300' } })
      .png()
      .toBuffer(),
  );
}

async function upload(
  web: Awaited<ReturnType<typeof as>>,
  d: Demo,
  bytes: Uint8Array,
  type: string,
  csrf = true,
) {
  const form = new FormData();
  if (csrf) form.set('_csrf', web.csrf());
  form.set('back', `${site(d)}/pages/${d.pages.home}/sections/${d.sections.hero}`);
  form.set('image', new Blob([Buffer.from(bytes)], { type }), 'photo.png');
  const res = await fetch(`${s.url}${site(d)}/library`, {
    method: 'POST',
    headers: { cookie: web.cookies() },
    body: form,
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

describe('editing the draft by hand', () => {
  it('saves a section from its form: the agent reads it next, the publish review lists it, Activity says so', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const console = await web.get(site(d));
    expect(console.html).toContain(`href="${site(d)}/pages/${d.pages.home}"`);
    const editor = await web.get(`${site(d)}/pages/${d.pages.home}`);
    expect(editor.status).toBe(200);
    expect(editor.html).toContain(`data-section="${d.sections.hero}"`);
    const form = await web.get(sectionUrl(d, d.pages.home, d.sections.hero));
    expect(form.status).toBe(200);
    const rev = /name="rev" value="(\d+)"/.exec(form.html)![1]!;
    expect(form.html).toContain('name="c.heading"');

    const saved = await web.post(sectionUrl(d, d.pages.home, d.sections.hero), {
      rev,
      intent: 'save',
      'c.heading': 'Bread baked by hand, every morning',
      'c.subheading': 'Open **from seven**',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${site(d)}/pages/${d.pages.home}?done=saved`);

    const page = await s.call(d.tokens.default, 'get_page', { pageId: d.pages.home });
    const hero = (
      page.data!.sections as Array<{ sectionId: string; content: Record<string, unknown>; rev: number }>
    ).find((x) => x.sectionId === d.sections.hero)!;
    expect(hero.content).toMatchObject({
      heading: 'Bread baked by hand, every morning',
      subheading: 'Open **from seven**',
    });
    // An optional field left empty is removed, as update_section_text removes it.
    expect(hero.content.buttonLabel).toBeUndefined();
    expect(hero.rev).toBe(Number(rev) + 1);
    const changes = await s.call(d.tokens.default, 'list_draft_changes', {});
    expect(JSON.stringify(changes.data)).toContain(d.sections.hero);
    expect((await ownerLines(d.websites.main, 'replace_section_content')).map((l) => l.summary)).toEqual([
      'The owner edited a hero section of /home by hand.',
    ]);
  });

  it('refuses content the schema does not accept and a form older than the section, keeping what was typed', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const form = await web.get(sectionUrl(d, d.pages.home, d.sections.hero));
    const rev = /name="rev" value="(\d+)"/.exec(form.html)![1]!;
    const before = await written(d.websites.main);

    const html = await web.post(sectionUrl(d, d.pages.home, d.sections.hero), {
      rev,
      intent: 'save',
      'c.heading': 'Fresh <script>alert(1)</script> bread',
    });
    expect(html.status).toBe(400);
    expect(html.html).toContain('id="form-error"');
    expect(html.html).toContain('HTML is not allowed here');
    // What the owner typed is in the form again (escaped), not lost.
    expect(html.html).toContain('value="Fresh &lt;script&gt;alert(1)&lt;/script&gt; bread"');
    expect(await written(d.websites.main)).toEqual(before);

    // An agent saves the section after the owner opened the form.
    const agent = await s.call(d.tokens.default, 'update_section_text', {
      pageId: d.pages.home,
      sectionId: d.sections.hero,
      text: { heading: 'The agent’s heading' },
    });
    expect(agent.ok).toBe(true);
    const afterAgent = await written(d.websites.main);
    const stale = await web.post(sectionUrl(d, d.pages.home, d.sections.hero), {
      rev,
      intent: 'save',
      'c.heading': 'The owner’s heading',
    });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('id="stale"');
    expect(stale.html).toContain(`version ${Number(rev) + 1}`);
    expect(stale.html).toContain('value="The owner’s heading"');
    expect(await written(d.websites.main)).toEqual(afterAgent);
    // The form now carries the agent's rev: saving again is the owner's deliberate choice.
    expect(stale.html).toContain(`name="rev" value="${Number(rev) + 1}"`);
  });

  it('shows Markdown as the site will without saving, and adds and removes list items', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    const added = await web.post(`${site(d)}/pages/${d.pages.about}/sections`, { type: 'faq' });
    expect(added.status).toBe(303);
    const sectionId = /sections\/([^/?]+)\?done=added/.exec(added.location!)![1]!;
    const url = sectionUrl(d, d.pages.about, sectionId);
    const form = await web.get(url);
    expect(form.html).toContain('name="c.items._rows" value="1"');
    const rev = /name="rev" value="(\d+)"/.exec(form.html)![1]!;
    const before = await written(d.websites.main);

    const preview = await web.post(url, {
      rev,
      intent: 'preview',
      'c.items._rows': '1',
      'c.items.0.question': 'Do you bake on Sundays?',
      'c.items.0.answer': 'Yes, **until noon**.',
    });
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('<strong>until noon</strong>');
    expect(await written(d.websites.main)).toEqual(before);

    const two = await web.post(url, {
      rev,
      intent: 'save',
      'c.heading': 'Questions',
      'c.items._rows': '1',
      'c.items.0.question': 'Do you bake on Sundays?',
      'c.items.0.answer': 'Yes, until noon.',
    });
    expect(two.status).toBe(303);
    let row = (await db().select().from(sections).where(eq(sections.id, sectionId)))[0]!;
    expect(row.content).toEqual({
      heading: 'Questions',
      items: [{ question: 'Do you bake on Sundays?', answer: 'Yes, until noon.' }],
    });

    const again = await web.get(url);
    expect(again.html).toContain('name="c.items._rows" value="2"');
    const removed = await web.post(url, {
      rev: String(row.rev),
      intent: 'save',
      'c.heading': 'Questions',
      'c.items._rows': '2',
      'c.items.0.question': 'Do you bake on Sundays?',
      'c.items.0.answer': 'Yes, until noon.',
      'c.items.0._remove': 'yes',
      'c.items.1.question': 'Gluten free?',
      'c.items.1.answer': 'Two loaves a day.',
    });
    expect(removed.status).toBe(303);
    row = (await db().select().from(sections).where(eq(sections.id, sectionId)))[0]!;
    expect(row.content).toEqual({
      heading: 'Questions',
      items: [{ question: 'Gluten free?', answer: 'Two loaves a day.' }],
    });
  });

  it('adds a page, moves, hides and shows sections and saves the search texts; a stale move writes nothing', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await web.get(site(d));
    const made = await web.post(`${site(d)}/pages`, { title: 'Opening hours', slug: '' });
    expect(made.status).toBe(303);
    const pageId = /pages\/([^/?]+)\?done=page_added/.exec(made.location!)![1]!;
    const [page] = await db().select().from(pages).where(eq(pages.id, pageId));
    expect(page!.slug).toBe('opening-hours');

    await web.post(`${site(d)}/pages/${pageId}/sections`, { type: 'text' });
    await web.post(`${site(d)}/pages/${pageId}/sections`, { type: 'cta' });
    const order = async () =>
      await db()
        .select({ id: sections.id, type: sections.type, hidden: sections.hidden })
        .from(sections)
        .where(eq(sections.pageId, pageId))
        .orderBy(sections.position);
    const [text, cta] = await order();
    expect([text!.type, cta!.type]).toEqual(['text', 'cta']);
    await web.get(`${site(d)}/pages/${pageId}`);
    expect(
      (await web.post(`${sectionUrl(d, pageId, cta!.id)}/move`, { from: '1', direction: 'up' })).status,
    ).toBe(303);
    expect((await order()).map((x) => x.type)).toEqual(['cta', 'text']);

    // The same form again (the owner's second tab): the section is no longer where the form says.
    const before = await written(d.websites.main);
    const stale = await web.post(`${sectionUrl(d, pageId, cta!.id)}/move`, { from: '1', direction: 'up' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('changed after you opened this page');
    expect(await written(d.websites.main)).toEqual(before);

    expect((await web.post(`${sectionUrl(d, pageId, text!.id)}/hide`, { hidden: '1' })).location).toContain(
      'done=hidden',
    );
    expect((await order()).find((x) => x.id === text!.id)!.hidden).toBe(true);
    const hideTwice = await web.post(`${sectionUrl(d, pageId, text!.id)}/hide`, { hidden: '1' });
    expect(hideTwice.status).toBe(409);
    expect((await web.post(`${sectionUrl(d, pageId, text!.id)}/hide`, { hidden: '0' })).location).toContain(
      'done=shown',
    );

    const seo = await web.post(`${site(d)}/pages/${pageId}/seo`, {
      title: 'Opening hours · Demo Bakery',
      description: 'When the shop is open.',
    });
    expect(seo.status).toBe(303);
    const [after] = await db().select().from(pages).where(eq(pages.id, pageId));
    expect([after!.seoTitle, after!.seoDescription]).toEqual([
      'Opening hours · Demo Bakery',
      'When the shop is open.',
    ]);
    const tools = (
      await db().select({ tool: activity.tool }).from(activity).where(eq(activity.websiteId, d.websites.main))
    ).map((l) => l.tool);
    for (const t of ['create_page', 'add_section', 'move_section', 'set_section_hidden', 'update_page_seo'])
      expect(tools).toContain(t);
  });

  it('uploads an image into the library and offers it in image fields; a file that is not an image adds nothing', async () => {
    const d = await s.seed();
    const web = await as(d.users.owner);
    await web.get(site(d));
    const before = await written(d.websites.main);
    const fake = await upload(web, d, new TextEncoder().encode('<svg onload=alert(1)>'), 'image/png');
    expect(fake.status).toBe(400);
    expect(fake.body).toContain('not a PNG, JPEG or WebP image');
    expect(await written(d.websites.main)).toEqual(before);
    const noCsrf = await upload(web, d, await png(), 'image/png', false);
    expect(noCsrf.status).toBe(403);
    expect(await written(d.websites.main)).toEqual(before);

    const ok = await upload(web, d, await png(), 'image/png');
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`${sectionUrl(d, d.pages.home, d.sections.hero)}?done=uploaded`);
    const [asset] = await db()
      .select()
      .from(assets)
      .where(and(eq(assets.websiteId, d.websites.main), eq(assets.source, 'upload')));
    expect([asset!.mime, asset!.width, asset!.height]).toEqual(['image/png', 3, 2]);
    const form = await web.get(sectionUrl(d, d.pages.home, d.sections.hero));
    expect(form.html).toContain(`<option value="${asset!.id}"`);
    // The owner can fetch the draft's new image.
    const img = await fetch(`${s.url}/assets/${asset!.id}`, { headers: { cookie: web.cookies() } });
    expect(img.status).toBe(200);
  });

  it('another tenant, an editor and a missing CSRF token change nothing', async () => {
    const d = await s.seed();
    const before = await written(d.websites.main);
    const edit = { rev: '1', intent: 'save', 'c.heading': 'Taken over' };

    const other = await as(d.users.otherOwner);
    await other.get('/');
    expect((await other.get(sectionUrl(d, d.pages.home, d.sections.hero))).status).toBe(404);
    expect((await other.post(sectionUrl(d, d.pages.home, d.sections.hero), edit)).status).toBe(404);
    // Their own site with our section id: the same not_found.
    const theirs = `/dashboard/sites/${d.websites.otherTenant}/pages/${d.pages.otherHome}/sections/${d.sections.hero}`;
    expect((await other.post(theirs, edit)).status).toBe(404);
    expect((await other.post(`${site(d)}/pages`, { title: 'Mine now' })).status).toBe(404);

    const editor = await as(d.users.editor);
    await editor.get('/');
    expect((await editor.get(`${site(d)}/pages/${d.pages.home}`)).status).toBe(403);
    expect((await editor.post(sectionUrl(d, d.pages.home, d.sections.hero), edit)).status).toBe(403);
    expect(
      (await editor.post(`${sectionUrl(d, d.pages.home, d.sections.hero)}/hide`, { hidden: '1' })).status,
    ).toBe(403);

    const owner = await as(d.users.owner);
    await owner.get(site(d));
    expect(
      (await owner.post(sectionUrl(d, d.pages.home, d.sections.hero), edit, { csrf: false })).status,
    ).toBe(403);
    expect((await owner.post(`${site(d)}/pages`, { title: 'No token' }, { csrf: false })).status).toBe(403);
    expect(await written(d.websites.main)).toEqual(before);
  });
});
