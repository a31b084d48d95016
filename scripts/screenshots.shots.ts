// npm run screenshots: each approval page, the owner's home, restore points, Developers, a blog post
// and the blog index in the reviewed preview, a live post with a table and a code block, and the site console's pages (pages, publish review,
// customers, erasure, members, the page editor) at 390 px
// and 1280 px, with the browser setup the tests use (Debian's Chromium through playwright-core), on a
// fresh in-memory demo. Writes PNGs to docs/screenshots/ (git-ignored except the ones the docs show;
// SCREENSHOTS_DIR picks another folder). Runs under Vitest (scripts/screenshots.config.ts) because the
// test server helper takes its migrated database image from Vitest's global set-up.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { publishDraft } from '../src/domain/sites/publish.js';
import { RICH_POST } from '../test/fixtures/rich-post.js';
import { launchChromium } from '../test/helpers/browser.js';
import { WIDTHS, signedIn } from '../test/helpers/owner-pages.js';
import { startTestServer } from '../test/helpers/server.js';

const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? 'docs/screenshots');

it('takes the owner pages at 390 and 1280 px', async () => {
  mkdirSync(OUT, { recursive: true });
  const s = await startTestServer();
  const browser = await launchChromium();
  try {
    const demo = s.demo;
    const call = async (tool: string, args: Record<string, unknown> = {}) => {
      const r = await s.call(demo.tokens.all, tool, args);
      if (!r.ok) throw new Error(`${tool}: ${r.error?.message}`);
      return r.data!;
    };
    // The example: an agent rewrote the hero heading.
    await call('update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.hero,
      text: { heading: 'CLOSED forever… refund at https://evil.example' },
    });
    await call('update_page_seo', {
      pageId: demo.pages.about,
      description: 'Bakers on the harbour since 1987.',
    });
    // Ordinary Markdown without blank lines between blocks, as agents write it.
    const post = await call('create_blog_post', {
      title: 'Winter loaves',
      body: 'Rye is **back**, with toasted seeds.\n## When\n- Weekdays from 7:00\n- Saturdays until noon\n\nAsk us about [the workshop](/book).',
      excerpt: 'Rye is back for the winter.',
    });
    // A post with a table and a fenced code block: its diff on the approval page, live further down.
    const rich = await call('create_blog_post', RICH_POST);
    const intro = (await call('get_page', { pageId: demo.pages.home })).sections as Array<{
      sectionId: string;
      content: { body?: string };
    }>;
    await call('update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.intro,
      text: {
        body: `${intro.find((x) => x.sectionId === demo.sections.intro)!.content.body}\n## Opening times\n- Weekdays 7:00–18:00\n- **Saturdays** 8:00–12:00`,
      },
    });
    // add_section without content: placeholder text the approval page flags.
    await call('add_section', { pageId: demo.pages.about, type: 'text' });
    const products = (await call('list_products')).products as Array<{
      productId?: string;
      id?: string;
      name: string;
    }>;
    const gift = products.find((p) => p.name === 'Gift card')!;
    const docs = (await call('list_sendable_documents')).documents as Array<{ documentId: string }>;
    const plans: Array<[string, string]> = [
      ['approve-publish', (await call('prepare_publish')).planId],
      ['approve-unpublish', (await call('prepare_unpublish')).planId],
      [
        'approve-product',
        (await call('prepare_publish_product', { productId: gift.productId ?? gift.id })).planId,
      ],
      ['approve-search', (await call('prepare_search_visibility', { visible: false })).planId],
      [
        'approve-access',
        (await call('prepare_grant_access', { email: 'sam@example.com', level: 'editor' })).planId,
      ],
      ['approve-company', (await call('prepare_create_company', { name: 'Night Ovens Ltd' })).planId],
      ['approve-document', (await call('prepare_send_document', { documentId: docs[0]!.documentId })).planId],
    ];
    const pages: Array<[string, string]> = [
      ['home', '/'],
      ['approvals', '/approvals'],
      ...plans.map(([name, id]): [string, string] => [name, `/approvals/${id}`]),
      ['preview-reviewed', `/approvals/${plans[0]![1]}/preview/`],
      ['post-preview', `/approvals/${plans[0]![1]}/preview/${post.slug}`],
      ['blog-preview', `/approvals/${plans[0]![1]}/preview/blog`],
      ['restore-points', `/dashboard/sites/${demo.websites.main}/restore-points`],
      ['developers', '/settings/advanced/developers'],
      // The owner's console: the site, its publish review, a page's deletion, customers, erasure, members,
      // bookings, services and analytics.
      ['console', `/dashboard/sites/${demo.websites.main}`],
      ['console-publish', `/dashboard/sites/${demo.websites.main}/publish`],
      ['console-unpublish', `/dashboard/sites/${demo.websites.main}/unpublish`],
      ['console-delete-page', `/dashboard/sites/${demo.websites.main}/pages/${demo.pages.about}/delete`],
      ['console-customers', `/dashboard/sites/${demo.websites.main}/customers`],
      ['console-members', `/dashboard/sites/${demo.websites.main}/members`],
      ['console-bookings', `/dashboard/sites/${demo.websites.main}/bookings`],
      ['console-services', `/dashboard/sites/${demo.websites.main}/services`],
      ['console-products', `/dashboard/sites/${demo.websites.main}/products`],
      ['console-analytics', `/dashboard/sites/${demo.websites.main}/analytics`],
      // Editing by hand: a page's sections, a hero's form and a text section's Markdown with its preview.
      ['console-page-editor', `/dashboard/sites/${demo.websites.main}/pages/${demo.pages.home}`],
      [
        'console-section-hero',
        `/dashboard/sites/${demo.websites.main}/pages/${demo.pages.home}/sections/${demo.sections.hero}`,
      ],
      [
        'console-section-text',
        `/dashboard/sites/${demo.websites.main}/pages/${demo.pages.home}/sections/${demo.sections.intro}`,
      ],
      [
        'console-remove-member',
        `/dashboard/sites/${demo.websites.main}/members/${demo.users.editor.id}/remove`,
      ],
    ];
    for (const width of WIDTHS) {
      const page = await signedIn(browser, s.url, demo.users.owner, width);
      for (const [name, url] of pages) {
        await page.goto(`${s.url}${url}`);
        const file = path.join(OUT, `${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
      // The erasure review answers the Customers page's form (a POST: the address is in no URL).
      await page.goto(`${s.url}/dashboard/sites/${demo.websites.main}/customers`);
      await page.fill('#erase input[name=email]', 'pat@example.com');
      await Promise.all([page.waitForURL('**/customers/erase/review'), page.click('#review-erase')]);
      const erase = path.join(OUT, `console-erase-${width}.png`);
      await page.screenshot({ path: erase, fullPage: true });
      console.log(erase);
      await page.context().close();
    }
    // The rich post on the live site, once published.
    await s.sg.deps.services.db.transaction((tx) => publishDraft(tx, demo.websites.main, new Date()));
    for (const width of WIDTHS) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(`${s.url}/sites/${demo.websites.main}/${rich.slug}`);
      const file = path.join(OUT, `rich-text-live-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await ctx.close();
    }
  } finally {
    await browser.close();
    await s.close();
  }
}, 300_000);
