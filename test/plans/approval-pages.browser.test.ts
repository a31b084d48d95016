// Each plan kind's approval page in Chromium (R-PLAN-3): the owner sees the change itself. For a
// publish: the live and draft text side by side with the changed words marked, and a preview of the
// reviewed revision even after the draft moved on; a hostile heading stays text (no link, no markup).
// Every approval page fits 390 px and 1280 px and has no serious or critical axe-core violation.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

const HOSTILE = 'CLOSED forever… [refund here](https://evil.example/refund) at https://evil.example';

async function ownerAt(demo: Demo, path: string, width = 1280): Promise<Page> {
  const page = await signedIn(suite.browser, suite.s.url, demo.users.owner, width);
  await page.goto(`${suite.s.url}${path}`);
  return page;
}

async function prepare(demo: Demo, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await suite.s.call(demo.tokens.all, tool, args);
  expect(r.error).toBeUndefined();
  return r.data!.planId as string;
}

/** Each page fits both widths and axe finds nothing serious or critical (one sign-in per width). */
async function fitsAndPasses(demo: Demo, paths: string[]) {
  for (const width of WIDTHS) {
    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner, width);
    for (const path of paths) {
      await page.goto(`${suite.s.url}${path}`);
      expect(await overflowOf(page), `${path} at ${width}px`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${path} at ${width}px`).toEqual([]);
    }
    await page.context().close();
  }
}

describe('publish', () => {
  it('shows live and draft text side by side, marks the changed words, keeps a hostile heading inert', async () => {
    const demo = await suite.s.seed();
    const edit = await suite.s.call(demo.tokens.all, 'update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.hero,
      text: { heading: HOSTILE },
    });
    expect(edit.ok).toBe(true);
    const planId = await prepare(demo, 'prepare_publish');
    const page = await ownerAt(demo, `/approvals/${planId}`);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs += 1;
      void d.dismiss();
    });

    const hero = page.locator(`[data-section="${demo.sections.hero}"]`);
    await expect(hero.locator('h3').textContent()).resolves.toContain('hero section: edited');
    const heading = hero.locator('.field', { hasText: 'Heading' });
    // Live text on the left with the removed words struck; draft on the right with the new words marked.
    await expect(heading.locator('.old p').textContent()).resolves.toBe('Fresh bread every morning');
    await expect(heading.locator('.new p').textContent()).resolves.toBe(HOSTILE);
    const removed = (await heading.locator('.old del').allTextContents()).join(' ');
    const added = (await heading.locator('.new ins').allTextContents()).join(' ');
    expect(removed).toContain('Fresh');
    expect(added).toContain('CLOSED');
    expect(added).toContain('evil.example');
    expect(await heading.locator('.new p').innerHTML()).not.toMatch(/<a\b/);
    expect(await page.locator('a[href*="evil.example"]').count()).toBe(0);
    expect(dialogs).toBe(0);
    // Untouched words are not marked: "every" from the intro's edit is in neither del nor ins there.
    const intro = page.locator(`[data-section="${demo.sections.intro}"]`);
    await expect(intro.locator('.new ins').allTextContents()).resolves.toEqual([
      expect.stringMatching(/Harbor/),
    ]);
    await page.context().close();
  });

  it('shows Markdown text rendered with the changes marked inside it; the page passes axe and both fit', async () => {
    const demo = await suite.s.seed();
    const post = await suite.s.call(demo.tokens.all, 'create_blog_post', {
      title: 'Opening times',
      body: 'Open all week.\n## When\n- Weekdays\n- **Saturdays**',
    });
    expect(post.error).toBeUndefined();
    const edit = await suite.s.call(demo.tokens.all, 'update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.intro,
      text: {
        body: 'We bake by [hand](https://evil.example/refund).\n## Opening times\n- Weekdays 7:00–18:00\n- **Saturdays** 8:00–12:00',
      },
    });
    expect(edit.error).toBeUndefined();
    const planId = await prepare(demo, 'prepare_publish');
    const page = await ownerAt(demo, `/approvals/${planId}`);
    const body = page.locator(`[data-section="${demo.sections.intro}"] .field`, { hasText: 'Body' });
    await expect(body.locator('.new .md h2 ins').textContent()).resolves.toBe('Opening times');
    await expect(body.locator('.new .md li strong ins').textContent()).resolves.toBe('Saturdays');
    expect(await body.locator('.new').textContent()).not.toMatch(/##|\*\*/);
    // A link to another site shows the owner where it goes.
    const shown = await body.locator('.new .md a').evaluate((a) => getComputedStyle(a, '::after').content);
    expect(shown).toBe('" (https://evil.example/refund)"');
    await page.context().close();
    await fitsAndPasses(demo, [`/approvals/${planId}`]);
    // The post as it will go live fits both widths (its CSP allows no script, so no axe there).
    for (const width of WIDTHS) {
      const p = await ownerAt(demo, `/approvals/${planId}/preview/${post.data!.slug}`, width);
      await expect(p.locator('article h2').textContent()).resolves.toBe('When');
      expect(await overflowOf(p), `post at ${width}px`).toBeLessThanOrEqual(0);
      await p.context().close();
    }
  });

  it('lists SEO changes, new pages and posts, hidden, moved and removed sections', async () => {
    const demo = await suite.s.seed();
    const call = async (tool: string, args: Record<string, unknown>) =>
      expect((await suite.s.call(demo.tokens.all, tool, args)).error).toBeUndefined();
    await call('update_page_seo', { pageId: demo.pages.about, title: 'About the bakers' });
    await call('create_page', { title: 'Opening hours', slug: 'hours' });
    await call('create_blog_post', { title: 'Winter loaves', body: 'Rye is *back*.' });
    await call('set_section_hidden', {
      pageId: demo.pages.home,
      sectionId: demo.sections.hero,
      hidden: true,
    });
    await call('move_section', { pageId: demo.pages.home, sectionId: demo.sections.intro, position: 3 });
    const planId = await prepare(demo, 'prepare_publish');
    const page = await ownerAt(demo, `/approvals/${planId}`);
    const text = (await page.locator('#publish-review').textContent()) ?? '';
    expect(text).toContain('About the bakers');
    expect(text).toMatch(/Search title/);
    await expect(page.locator('#new-pages').textContent()).resolves.toMatch(
      /Page “Opening hours” at \/hours/,
    );
    await expect(page.locator('#new-pages').textContent()).resolves.toMatch(/Blog post “Winter loaves”/);
    const hero = page.locator(`[data-section="${demo.sections.hero}"] h3`);
    await expect(hero.textContent()).resolves.toContain('hidden from visitors');
    const intro = page.locator(`[data-section="${demo.sections.intro}"] h3`);
    await expect(intro.textContent()).resolves.toMatch(/moved from position 2 to 4/);
    // The new post's text is shown as an added section, as visitors will read it: rendered, no syntax.
    expect(text).toContain('Rye is back.');
    expect(text).not.toContain('*back*');
    await expect(page.locator('#publish-review .chg.added .new .md em').first().textContent()).resolves.toBe(
      'back',
    );
    await page.context().close();
  });

  it('the preview link shows exactly the reviewed revision, and says so once the draft moved on', async () => {
    const demo = await suite.s.seed();
    const heading = (h: string) =>
      suite.s.call(demo.tokens.all, 'update_section_text', {
        pageId: demo.pages.home,
        sectionId: demo.sections.hero,
        text: { heading: h },
      });
    await heading('Reviewed heading');
    const planId = await prepare(demo, 'prepare_publish');
    const page = await ownerAt(demo, `/approvals/${planId}`);
    await Promise.all([page.waitForURL(/\/preview\/$/), page.click('#preview-link')]);
    await expect(page.locator('h1').first().textContent()).resolves.toBe('Reviewed heading');
    await expect(page.locator('.draft-bar').textContent()).resolves.toContain('exactly as you are reviewing');
    // Other pages of the reviewed draft are there too.
    await page.goto(`${suite.s.url}/approvals/${planId}/preview/about`);
    expect(await page.locator('main').count()).toBe(1);

    await heading('A later heading nobody reviewed');
    // The draft moved on: the plan can no longer be approved, the page says so and offers no preview,
    // and the preview's address shows nothing of a draft nobody reviewed.
    await page.goto(`${suite.s.url}/approvals/${planId}`);
    expect(await page.locator('#approve').count()).toBe(0);
    expect(await page.locator('#preview-link').count()).toBe(0);
    const res = await page.goto(`${suite.s.url}/approvals/${planId}/preview/`);
    expect(res!.status()).toBe(409);
    const text = await page.content();
    expect(text).toContain('The draft has changed since this plan was prepared');
    expect(text).not.toContain('A later heading');
    expect(text).not.toContain('Reviewed heading');
    // The live draft preview, by contrast, has moved on.
    await page.goto(`${suite.s.url}/editor/${demo.websites.main}/`);
    await expect(page.locator('h1').first().textContent()).resolves.toBe('A later heading nobody reviewed');
    await page.context().close();
  });

  it('a non-owner gets no preview of the reviewed draft', async () => {
    const demo = await suite.s.seed();
    const planId = await prepare(demo, 'prepare_publish');
    const page = await signedIn(suite.browser, suite.s.url, demo.users.editor);
    const res = await page.goto(`${suite.s.url}/approvals/${planId}/preview/`);
    expect(res!.status()).toBe(403);
    expect(await page.content()).not.toContain('Welcome to Harbor Bakery');
    await page.context().close();
  });
});

describe('the other plan kinds', () => {
  it('unpublish: what goes offline and what visitors see instead', async () => {
    const demo = await suite.s.seed();
    const page = await ownerAt(demo, `/approvals/${await prepare(demo, 'prepare_unpublish')}`);
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).toContain('What goes offline');
    expect(body).toMatch(/What visitors see instead.*Not found/s);
    expect(body).toContain('Live since');
    await page.context().close();
  });

  it('publish product: the product as it will appear, with its price', async () => {
    const demo = await suite.s.seed();
    const products = (await suite.s.call(demo.tokens.all, 'list_products')).data!.products as Array<{
      productId?: string;
      id?: string;
      name: string;
    }>;
    const gift = products.find((p) => p.name === 'Gift card')!;
    const planId = await prepare(demo, 'prepare_publish_product', { productId: gift.productId ?? gift.id });
    const page = await ownerAt(demo, `/approvals/${planId}`);
    await expect(page.locator('#product h2').textContent()).resolves.toBe('Gift card');
    await expect(page.locator('#product .price').textContent()).resolves.toBe('EUR 25.00');
    await page.context().close();
  });

  it('search visibility: before, after and what it means', async () => {
    const demo = await suite.s.seed();
    const page = await ownerAt(
      demo,
      `/approvals/${await prepare(demo, 'prepare_search_visibility', { visible: false })}`,
    );
    const facts = (await page.locator('table.facts').textContent()) ?? '';
    expect(facts).toMatch(/Now\s*visible to search engines/);
    expect(facts).toMatch(/After approval\s*hidden from search engines/);
    expect(facts).toMatch(/What it means.*asked not to list/s);
    await page.context().close();
  });

  it('grant access: address, level, site and what that level may do', async () => {
    const demo = await suite.s.seed();
    const planId = await prepare(demo, 'prepare_grant_access', { email: 'sam@example.com', level: 'editor' });
    const page = await ownerAt(demo, `/approvals/${planId}`);
    const facts = (await page.locator('table.facts').textContent()) ?? '';
    expect(facts).toContain('sam@example.com');
    expect(facts).toMatch(/Level\s*Editor/);
    expect(facts).toContain('Harbor Bakery only');
    expect(facts).toMatch(/What this level may do.*edit draft pages/s);
    await page.context().close();
  });

  it('create company: the name and what is and is not created', async () => {
    const demo = await suite.s.seed();
    const page = await ownerAt(
      demo,
      `/approvals/${await prepare(demo, 'prepare_create_company', { name: 'Night Ovens Ltd' })}`,
    );
    const facts = (await page.locator('table.facts').textContent()) ?? '';
    expect(facts).toContain('Night Ovens Ltd');
    expect(facts).toMatch(/What is not created.*No website/s);
    await page.context().close();
  });

  it('send document: recipient, lines, totals and the exact email; after it is done, what happened and when', async () => {
    const demo = await suite.s.seed();
    const docs = (await suite.s.call(demo.tokens.all, 'list_sendable_documents')).data!.documents as Array<{
      documentId: string;
      number: string;
    }>;
    const inv = docs.find((d) => d.number === 'INV-2026-014')!;
    const planId = await prepare(demo, 'prepare_send_document', { documentId: inv.documentId });
    const page = await ownerAt(demo, `/approvals/${planId}`);
    await expect(page.locator('#lines tbody').textContent()).resolves.toContain('Breakfast box');
    await expect(page.locator('#lines tfoot').textContent()).resolves.toContain('EUR 100.00');
    await expect(page.locator('#email dd').allTextContents()).resolves.toEqual([
      'pat@example.com',
      'Invoice INV-2026-014 from Harbor Bakery',
    ]);
    await expect(page.locator('#email pre').textContent()).resolves.toMatch(
      /^Invoice INV-2026-014 from Harbor Bakery\nTo: Pat Customer/,
    );
    await Promise.all([page.waitForURL(/done=approved/), page.click('#approve')]);
    const approved = (await page.locator('#status').textContent()) ?? '';
    expect(approved).toMatch(/Approved at .*Nothing has happened yet/s);
    expect(approved).not.toContain('confirm_pending_action');
    expect((await suite.s.call(demo.tokens.all, 'confirm_pending_action', { planId })).ok).toBe(true);
    await page.reload();
    const done = (await page.locator('#status').textContent()) ?? '';
    expect(done).toMatch(
      /Done\. The document was marked sent and its email queued\. Your assistant carried it out at \d{1,2} \w{3} \d{4}, \d\d:\d\d/,
    );
    // In the workspace's time zone (the demo site's is Europe/Amsterdam), never raw ISO.
    expect(done).toMatch(/CET|CEST|GMT\+1|GMT\+2/);
    expect(done).not.toMatch(/\d{4}-\d\d-\d\dT/);
    await page.context().close();
  });
});

describe('every approval page fits 390 and 1280 px and passes axe', () => {
  it('for each plan kind', async () => {
    const demo = await suite.s.seed();
    await suite.s.call(demo.tokens.all, 'update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.hero,
      text: {
        heading: `${HOSTILE} ${'https://evil.example/a-very-long-address-without-any-spaces-at-all'}`,
      },
    });
    const docs = (await suite.s.call(demo.tokens.all, 'list_sendable_documents')).data!.documents as Array<{
      documentId: string;
    }>;
    const products = (await suite.s.call(demo.tokens.all, 'list_products')).data!.products as Array<{
      productId?: string;
      id?: string;
      name: string;
    }>;
    const gift = products.find((p) => p.name === 'Gift card')!;
    const plans = [
      await prepare(demo, 'prepare_publish'),
      await prepare(demo, 'prepare_unpublish'),
      await prepare(demo, 'prepare_publish_product', { productId: gift.productId ?? gift.id }),
      await prepare(demo, 'prepare_search_visibility', { visible: false }),
      await prepare(demo, 'prepare_grant_access', { email: 'sam@example.com', level: 'viewer' }),
      await prepare(demo, 'prepare_create_company', { name: 'Night Ovens Ltd' }),
      await prepare(demo, 'prepare_send_document', { documentId: docs[0]!.documentId }),
    ];
    await fitsAndPasses(demo, ['/approvals', ...plans.map((id) => `/approvals/${id}`)]);
  }, 120_000);
});
