// The MCP Apps as a host renders them (R-APP-1..3): ext-apps' own host side (AppBridge) in Chromium,
// behind a sandbox proxy on another origin that enforces the CSP the app declares, renders each app
// from a real tool call against the real server, on both protocol revisions, at 390 and 1280 px.
// Screenshots go to SCREENSHOTS_DIR (docs/screenshots under `npm run screenshots`), else a temp folder.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingActions } from '../../src/db/schema.js';
import { type AppHost, type ShownApp, showApp, startAppHost } from '../helpers/app-host.js';
import { WIRES, type Wire, appsClient } from '../helpers/apps.js';
import { browserSuite } from '../helpers/browser.js';
import { MODERN } from '../helpers/mcp2026.js';

const suite = browserSuite();
const OUT = process.env.SCREENSHOTS_DIR ?? path.join(tmpdir(), 'sitegate-app-screenshots');
const EDITED = 'We bake everything by hand, every single day.';

let host: AppHost;
let marked: string;
let libraryImage: string;
let newPage: string;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  host = await startAppHost();
  const { s } = suite;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await s.call(s.demo.tokens.all, tool, args);
    if (!r.ok) throw new Error(`${tool}: ${r.error?.message}`);
    return r.data!;
  };
  // The draft as an agent leaves it: one section edited and a library image added on the home page, and
  // a new page with an image from another origin.
  await call('update_section_text', {
    pageId: s.demo.pages.home,
    sectionId: s.demo.sections.intro,
    text: { body: EDITED },
  });
  libraryImage = (await call('generate_image', { prompt: 'a loaf on a table', aspect: 'landscape' })).assetId;
  marked = (
    await call('add_section', {
      pageId: s.demo.pages.home,
      type: 'image',
      content: { url: libraryImage, alt: 'Loaf from the library', caption: 'Baked this morning.' },
      position: 2,
    })
  ).sectionId;
  newPage = (await call('create_page', { title: 'Opening hours' })).pageId;
  await call('add_section', {
    pageId: newPage,
    type: 'text',
    content: { heading: 'Opening hours', body: 'Monday to Friday, 7:00 to 18:00.' },
  });
  await call('add_section', {
    pageId: newPage,
    type: 'image',
    // Another origin, and a real image there: only the app's frame policy keeps it out.
    content: { url: host.imageUrl, alt: 'Loaf from elsewhere' },
  });
});
afterAll(() => host?.close());

type Run = { page: Page; shown: ShownApp };

/** Renders `tool`'s app at `width` px on `wire`. */
async function run(
  wire: Wire,
  width: number,
  tool: string,
  args: Record<string, unknown>,
  client?: Client,
): Promise<Run> {
  const { s, browser } = suite;
  const c = client ?? (await appsClient(s.mcpUrl, s.demo.tokens.all, wire, true));
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const shown = await showApp(page, host, c, tool, args);
  await shown.app.locator('main h1').waitFor();
  return { page, shown };
}

const shot = async (r: Run, name: string, wire: Wire, width: number) => {
  // Late layout in the drawn pages (images, the frame's measured height) settles first.
  await r.page.waitForTimeout(700);
  const file = wire === MODERN ? `app-${name}-${width}.png` : `app-${name}-${width}-2025.png`;
  await r.page.screenshot({ path: path.join(OUT, file), fullPage: true });
};

/** An image of a drawn page, loaded (or refused) in full: its natural width and address. */
const imageIn = (frame: Frame, alt: string) =>
  frame.locator(`img[alt="${alt}"]`).evaluate(async (img: HTMLImageElement) => {
    img.loading = 'eager';
    if (!img.complete) {
      await new Promise((done) => {
        img.addEventListener('load', done, { once: true });
        img.addEventListener('error', done, { once: true });
      });
    }
    return { width: img.naturalWidth, src: img.src };
  });

/** The frame the app drew server-rendered HTML into. */
const drawn = (r: Run) => r.shown.app.childFrames()[0]!;

describe.each(WIRES)('on the %s wire', (wire) => {
  it.each([390, 1280])(
    'the page preview draws the draft page, changed sections marked (%i px)',
    async (width) => {
      const { s } = suite;
      const r = await run(wire, width, 'get_page', { pageId: s.demo.pages.home });
      const app = r.shown.app;
      expect(await app.locator('main h1').textContent()).toBe('Home');
      expect(await app.locator('.badge').textContent()).toMatch(/Changed: 2 sections marked/);
      // The narrow host starts on the phone width, the wide one on desktop.
      const pressed = await app.locator('button[aria-pressed="true"]').textContent();
      expect(pressed).toBe(width < 700 ? 'Phone' : 'Desktop');
      await drawn(r).waitForLoadState();
      const frame = drawn(r);
      expect(await frame.locator('body').innerText()).toContain(EDITED);
      // The marks are the server's stylesheet around the site renderer's markup: changed sections only.
      const outline = (id: string) =>
        frame.locator(`#s-${id}`).evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(await outline(marked)).toBe('solid');
      expect(await outline(s.demo.sections.intro)).toBe('solid');
      expect(await outline(s.demo.sections.hero)).toBe('none');
      // The library's image, from this service, loads.
      const library = await imageIn(frame, 'Loaf from the library');
      expect(library).toEqual({ width: expect.any(Number), src: `${s.url}/assets/${libraryImage}` });
      expect(library.width).toBeGreaterThan(0);
      await shot(r, 'page-preview', wire, width);
      // The other width: the same page drawn in a frame of that width, so the site's own layout for it
      // applies.
      await app.locator(`button[data-width="${width < 700 ? 'desktop' : 'phone'}"]`).click();
      await drawn(r).waitForLoadState();
      const frameWidth = await drawn(r).evaluate(() => window.innerWidth);
      expect(frameWidth).toBe(width < 700 ? 1280 : 390);
      await r.page.close();
    },
  );

  it('an image from another origin is refused by the frame policy the app declares', async () => {
    const r = await run(wire, 1280, 'get_page', { pageId: newPage });
    expect(await r.shown.app.locator('.badge').textContent()).toBe('New: not on the live site yet');
    await drawn(r).waitForLoadState();
    expect(await imageIn(drawn(r), 'Loaf from elsewhere')).toEqual({ width: 0, src: host.imageUrl });
    // The same image loads in the host's own page: only the policy kept it out of the app.
    const control = await r.page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return img.naturalWidth;
    }, host.imageUrl);
    expect(control).toBe(1);
    expect(r.shown.csp).toEqual({ resourceDomains: [suite.s.url] });
    await r.page.close();
  });

  it.each([390, 1280])('the draft changes show the approval page’s review (%i px)', async (width) => {
    const r = await run(wire, width, 'list_draft_changes', {});
    const app = r.shown.app;
    expect(await app.locator('main h1').textContent()).toBe('Draft changes');
    expect(await app.locator('main').innerText()).toMatch(/\d+ changes not live yet/);
    await drawn(r).waitForLoadState();
    const review = drawn(r);
    // Changed words marked, the new page listed: the approval page's own component.
    expect(await review.locator('ins').allInnerTexts()).toEqual(expect.arrayContaining(['single']));
    expect(await review.locator('#new-pages').innerText()).toContain('Opening hours');
    await shot(r, 'draft-changes', wire, width);
    await r.page.close();
  });

  it.each([390, 1280])(
    'the site overview lists the pages and previews one through the host (%i px)',
    async (width) => {
      const r = await run(wire, width, 'get_site_overview', {});
      const app = r.shown.app;
      const rows = await app.locator('table.pages tbody tr').allInnerTexts();
      expect(rows.find((t) => t.includes('Home'))).toMatch(/Changed/);
      expect(rows.find((t) => t.includes('Opening hours'))).toMatch(/New/);
      expect(rows.find((t) => t.includes('About'))).toMatch(/Live/);
      await shot(r, 'site-overview', wire, width);
      // Preview: one get_page through the host, drawn by the page preview.
      const about = app.locator('tr', { hasText: 'About' }).locator('button');
      await about.click();
      await app.locator('.panel main h1, .panel h1').first().waitFor();
      expect(await app.locator('.panel h1').textContent()).toBe('About');
      expect(await r.page.evaluate(() => window.hostSaw)).toEqual(['tools/call get_page']);
      await r.page.close();
    },
  );

  it.each([390, 1280])('the plan app opens the approval page and never approves (%i px)', async (width) => {
    const { s } = suite;
    const r = await run(wire, width, 'prepare_publish', {});
    const app = r.shown.app;
    const plan = (r.shown.result.structuredContent as { data: { planId: string; approveUrl: string } }).data;
    expect(await app.locator('main h1').textContent()).toBe('Publish the draft');
    // What will happen: the same review as the approval page.
    await drawn(r).waitForLoadState();
    expect(await drawn(r).locator('#new-pages').innerText()).toContain('Opening hours');
    await shot(r, 'plan', wire, width);
    // Its one action opens the approval page; it has no other button and calls no tool.
    expect(await app.locator('button').allInnerTexts()).toEqual(['Open the approval page']);
    await app.locator('button', { hasText: 'Open the approval page' }).click();
    await expect.poll(() => r.page.evaluate(() => window.hostSaw)).toEqual([`open ${plan.approveUrl}`]);
    const [row] = await s.sg.deps.services.db
      .select()
      .from(pendingActions)
      .where(eq(pendingActions.id, plan.planId));
    expect(row?.status).toBe('pending');
    await r.page.close();
  });
});
