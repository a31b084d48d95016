// What visitors see, over real HTTP: one Markdown renderer and one navigation for the live site, the
// draft preview, the reviewed preview and the approval page; the blog lists posts newest first with
// their dates in the site's time zone; placeholder text is flagged before it goes live.
import * as cheerio from 'cheerio';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages, websites } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { publishDraft } from '../../src/domain/sites/publish.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type WebSession, webClient } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

async function ownerOf(d: Demo): Promise<WebSession> {
  const web = webClient(s.url);
  await web.get('/login');
  const r = await web.post('/login', {
    email: d.users.owner.email,
    password: d.users.owner.password,
    next: '/',
  });
  expect(r.status).toBe(303);
  return web;
}

const BODY = '## When\n- Weekdays\n- **Saturdays** and __Sundays__\n\nSee [our menu](/menu).';

async function prepare(d: Demo): Promise<string> {
  const r = await s.call(d.tokens.all, 'prepare_publish');
  expect(r.error).toBeUndefined();
  return r.data!.planId as string;
}

const publish = (d: Demo) =>
  s.sg.deps.services.db.transaction((tx) => publishDraft(tx, d.websites.main, new Date()));

describe('one renderer', () => {
  it('live site, draft preview, reviewed preview and approval page give the same HTML for one body', async () => {
    const d = await s.seed();
    const web = await ownerOf(d);
    const post = await s.call(d.tokens.all, 'create_blog_post', { title: 'Opening times', body: BODY });
    expect(post.error).toBeUndefined();
    const slug = post.data!.slug as string;
    const planId = await prepare(d);

    const article = (html: string) => cheerio.load(html)('article').html()!.trim();
    const draft = article((await web.get(`/editor/${d.websites.main}/${slug}`)).html);
    const reviewed = article((await web.get(`/approvals/${planId}/preview/${slug}`)).html);
    const approval = cheerio.load((await web.get(`/approvals/${planId}`)).html);
    const field = approval('#publish-review .chg.added')
      .filter((_i, el) => approval(el).find('.lbl').text() === 'Body')
      .first();
    const shown = field.find('.new .md').html()!.trim();
    await publish(d);
    const live = article((await web.get(`/sites/${d.websites.main}/${slug}`)).html);

    const $ = cheerio.load(live, null, false);
    expect($('h2').text()).toBe('When');
    expect($('ul > li').length).toBe(2);
    expect($('li strong').first().text()).toBe('Saturdays');
    expect($('li strong').last().text()).toBe('Sundays');
    expect(live).not.toMatch(/##|__|\*\*/);
    // Site links resolve under each rendering's own base; everything else is the same HTML.
    const unbased = (html: string, base: string) => html.replaceAll(`href="${base}/`, 'href="/');
    expect(unbased(draft, `/editor/${d.websites.main}`)).toBe(unbased(live, `/sites/${d.websites.main}`));
    expect(unbased(reviewed, `/approvals/${planId}/preview`)).toBe(
      unbased(live, `/sites/${d.websites.main}`),
    );
    expect(unbased(shown, `/approvals/${planId}/preview`)).toBe(unbased(live, `/sites/${d.websites.main}`));
  });

  it('the approval page marks changed words inside the rendered blocks, never showing Markdown syntax', async () => {
    const d = await s.seed();
    const web = await ownerOf(d);
    const intro = (await s.call(d.tokens.all, 'get_page', { pageId: d.pages.home })).data as {
      sections: Array<{ sectionId: string; content: { body?: string } }>;
    };
    const before = intro.sections.find((x) => x.sectionId === d.sections.intro)!.content.body!;
    await publish(d);
    const edit = await s.call(d.tokens.all, 'update_section_text', {
      pageId: d.pages.home,
      sectionId: d.sections.intro,
      text: { body: `${before}\n## When\n- Weekdays\n- **Saturdays**` },
    });
    expect(edit.error).toBeUndefined();
    const planId = await prepare(d);
    const $ = cheerio.load((await web.get(`/approvals/${planId}`)).html);
    const body = $(`[data-section="${d.sections.intro}"] .field`).filter(
      (_i, el) => $(el).find('.lbl').text() === 'Body',
    );
    expect(body.length).toBe(1);
    const after = body.find('.new .md');
    expect(after.find('h2 ins').text()).toBe('When');
    expect(after.find('li ins').first().text()).toBe('Weekdays');
    expect(after.find('li strong ins').text()).toBe('Saturdays');
    expect(after.text()).not.toMatch(/##|\*\*/);
    // The unchanged live text is there on both sides, unmarked.
    expect(body.find('.old .md del').length).toBe(0);
    expect(body.find('.old .md').text().trim()).toBe(
      cheerio.load(`<p>${before}</p>`).text().replace(/\*/g, ''),
    );
  });

  it('the previews show the live navigation, Blog and Book included', async () => {
    const d = await s.seed();
    const web = await ownerOf(d);
    await publish(d);
    // One change since the publish, so a publish plan (and its reviewed preview) exists.
    await s.call(d.tokens.all, 'update_page_seo', { pageId: d.pages.about, title: 'About us' });
    const planId = await prepare(d);
    const nav = (html: string) =>
      cheerio
        .load(html)('header nav a')
        .map((_i, a) => cheerio.load(a).text())
        .get();
    const live = nav((await web.get(`/sites/${d.websites.main}/`)).html);
    expect(live.slice(-2)).toEqual(['Blog', 'Book']);
    expect(nav((await web.get(`/editor/${d.websites.main}/`)).html)).toEqual(live);
    expect(nav((await web.get(`/approvals/${planId}/preview/`)).html)).toEqual(live);
    // And the Book link leads somewhere in the preview too (the form shown, disabled).
    const book = cheerio.load((await web.get(`/editor/${d.websites.main}/book`)).html);
    expect(book('h1').text()).toBe('Book');
    expect(book('main').text()).toContain('Bread workshop');
  });
});

describe('the blog', () => {
  it('lists posts newest first with their dates, and each post shows its date in the site time zone', async () => {
    const d = await s.seed();
    const web = await ownerOf(d);
    const { db } = s.sg.deps.services;
    const older = await s.call(d.tokens.all, 'create_blog_post', { title: 'Older news', body: 'Old.' });
    const newer = await s.call(d.tokens.all, 'create_blog_post', { title: 'Newer news', body: 'New.' });
    // 23:30 UTC on 1 March is already 2 March in Amsterdam.
    await db
      .update(pages)
      .set({ createdAt: new Date('2026-03-01T23:30:00Z') })
      .where(eq(pages.id, newer.data!.pageId as string));
    await db
      .update(pages)
      .set({ createdAt: new Date('2026-02-10T09:00:00Z') })
      .where(eq(pages.id, older.data!.pageId as string));
    await db
      .update(pages)
      .set({ createdAt: new Date('2025-12-24T09:00:00Z') })
      .where(eq(pages.id, d.pages.post));
    await db
      .update(websites)
      .set({ config: { locale: 'en', timezone: 'Europe/Amsterdam' } })
      .where(eq(websites.id, d.websites.main));
    await publish(d);
    for (const base of [`/sites/${d.websites.main}`, `/editor/${d.websites.main}`]) {
      const $ = cheerio.load((await web.get(`${base}/blog`)).html);
      const items = $('.posts li')
        .map((_i, li) => `${$(li).find('strong').text()} | ${$(li).find('time').attr('datetime')}`)
        .get();
      expect(items, base).toEqual([
        'Newer news | 2026-03-02',
        'Older news | 2026-02-10',
        'Our new sourdough | 2025-12-24',
      ]);
      expect($('.posts li').first().find('time').text()).toBe('2 March 2026');
      const one = cheerio.load((await web.get(`${base}/${newer.data!.slug}`)).html);
      expect(one('main time.post-date').attr('datetime')).toBe('2026-03-02');
      expect(one('main time.post-date').text()).toBe('2 March 2026');
    }
    // A snapshot published before pages carried their date still shows one: read from the page.
    // (A new time live: a process re-reads the pages whose digest moved.)
    await db.execute(sql`update published_page_digests set page = page - 'createdAt',
      digest = md5((page - 'createdAt')::text) where website_id = ${d.websites.main}`);
    await db.update(websites).set({ publishedAt: new Date() }).where(eq(websites.id, d.websites.main));
    const $ = cheerio.load((await web.get(`/sites/${d.websites.main}/blog`)).html);
    expect(
      $('.posts li time')
        .map((_i, t) => $(t).attr('datetime'))
        .get(),
    ).toEqual(['2026-03-02', '2026-02-10', '2025-12-24']);
  });
});

describe('placeholder text', () => {
  it('is flagged in list_draft_changes and on the approval page', async () => {
    const d = await s.seed();
    const web = await ownerOf(d);
    const clean = await s.call(d.tokens.all, 'list_draft_changes');
    expect(clean.data!.placeholders).toEqual([]);
    const added = await s.call(d.tokens.all, 'add_section', { pageId: d.pages.about, type: 'text' });
    expect(added.error).toBeUndefined();
    const sectionId = added.data!.sectionId as string;
    const hidden = await s.call(d.tokens.all, 'add_section', { pageId: d.pages.about, type: 'hero' });
    await s.call(d.tokens.all, 'set_section_hidden', {
      pageId: d.pages.about,
      sectionId: hidden.data!.sectionId,
      hidden: true,
    });

    const r = await s.call(d.tokens.all, 'list_draft_changes');
    expect(r.data!.placeholders).toEqual([
      { pageId: d.pages.about, page: 'About', sectionId, type: 'text', field: 'body', text: 'New text.' },
    ]);
    expect(r.data!.summary).toMatch(/1 visible field still shows placeholder text/);

    const planId = await prepare(d);
    const $ = cheerio.load((await web.get(`/approvals/${planId}`)).html);
    const flagged = $('#placeholders li');
    expect(flagged.length).toBe(1);
    expect(flagged.attr('data-section')).toBe(sectionId);
    expect(flagged.text()).toContain('“New text.”');

    // Replaced, it is no longer flagged.
    await s.call(d.tokens.all, 'update_section_text', {
      pageId: d.pages.about,
      sectionId,
      text: { body: 'We bake every morning.' },
    });
    expect((await s.call(d.tokens.all, 'list_draft_changes')).data!.placeholders).toEqual([]);
  });
});
