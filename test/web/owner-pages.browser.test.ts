// The owner's own pages in Chromium (R-WEB-4): the home lists their sites with preview, live
// and restore links, pending approvals with a count and recent Activity; restore points round-trip a
// merge (merge, edit, restore → the draft equals the restore point) behind a CSRF-protected
// confirmation, logged in Activity, refused to a non-owner with nothing written; and every owner page
// fits 390 px and 1280 px with no serious or critical axe-core violation.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, restorePoints } from '../../src/db/schema.js';
import { exportSite } from '../../src/portable/export.js';
import { browserSuite } from '../helpers/browser.js';
import { WIDTHS, overflowOf, seriousViolations, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

const db = () => suite.s.sg.deps.services.db;

/** Merges a small imported site into the demo's main site: a restore point is taken first. */
async function merged(demo: Demo): Promise<{ pointId: string; before: unknown }> {
  const before = await exportSite(db(), demo.websites.main, suite.s.url);
  const r = await suite.s.call(demo.tokens.default, 'import_site', {
    mergeIntoWebsiteId: demo.websites.main,
    site: {
      version: 1,
      name: 'Merged',
      businessName: 'Merged Co',
      config: { locale: 'en' },
      theme: {},
      fonts: {},
      pages: [
        {
          slug: 'home',
          title: 'Home',
          sections: [{ externalKey: 'k1', type: 'text', content: { body: 'merged in' } }],
        },
      ],
    },
  });
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  return { pointId: r.data!.merge.restorePointId as string, before };
}

const pointsOf = async (websiteId: string) =>
  (await db().select({ n: count() }).from(restorePoints).where(eq(restorePoints.websiteId, websiteId)))[0]!.n;

describe('the owner home', () => {
  it('lists the owned sites with links, pending approvals with a count, recent Activity and Developers', async () => {
    const demo = await suite.s.seed();
    const planId = (await suite.s.call(demo.tokens.all, 'prepare_publish')).data!.planId as string;
    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner);
    await page.goto(`${suite.s.url}/`);
    await expect(page.locator('#pending .count').textContent()).resolves.toBe('1');
    expect(await page.locator(`#pending a[href="/approvals/${planId}"]`).count()).toBe(1);
    const main = page.locator(`[data-site="${demo.websites.main}"]`);
    await expect(main.textContent()).resolves.toMatch(/Published\s*last published \d{1,2} \w{3} \d{4}/);
    await expect(main.textContent()).resolves.toContain('changes that are not live yet');
    const events = page.locator(`[data-site="${demo.websites.events}"]`);
    await expect(events.textContent()).resolves.toContain('Draft only');
    // The other tenant's site is not listed.
    expect(await page.locator(`[data-site="${demo.websites.otherTenant}"]`).count()).toBe(0);
    await expect(page.locator('#recent-activity').textContent()).resolves.toContain(
      'Prepared a publish plan',
    );
    // Each link leads somewhere real.
    for (const [link, expectText] of [
      ['Preview the draft', 'Draft preview'],
      ['Open the live site', 'Harbor Bakery'],
      ['Restore points', 'Restore points of Harbor Bakery'],
    ] as const) {
      await page.goto(`${suite.s.url}/`);
      const [res] = await Promise.all([
        page.waitForNavigation(),
        main.locator('a', { hasText: link }).click(),
      ]);
      expect(res!.status(), link).toBe(200);
      expect(await page.content(), link).toContain(expectText);
    }
    await page.goto(`${suite.s.url}/`);
    await Promise.all([
      page.waitForURL('**/settings/advanced/developers'),
      page.click('text=Developers: connections'),
    ]);
    await page.context().close();
  });
});

describe('restore points', () => {
  it('merge, edit, restore: the draft equals the restore point; the restore is logged and can be undone', async () => {
    const demo = await suite.s.seed();
    const { pointId, before } = await merged(demo);
    const edit = await suite.s.call(demo.tokens.all, 'update_section_text', {
      pageId: demo.pages.home,
      sectionId: demo.sections.hero,
      text: { heading: 'Edited after the merge' },
    });
    expect(edit.ok).toBe(true);
    expect(await exportSite(db(), demo.websites.main, suite.s.url)).not.toEqual(before);

    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner);
    await page.goto(`${suite.s.url}/dashboard/sites/${demo.websites.main}/restore-points`);
    const row = page.locator(`tr[data-point="${pointId}"]`);
    await expect(row.textContent()).resolves.toContain('merged an imported site');
    await Promise.all([page.waitForURL(`**/restore-points/${pointId}`), row.locator('a').click()]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Restore the draft of Harbor Bakery?');
    await Promise.all([page.waitForURL('**/restore-points?done=restored'), page.click('#confirm-restore')]);
    await expect(page.locator('#restored').textContent()).resolves.toContain('Restored.');

    expect(await exportSite(db(), demo.websites.main, suite.s.url)).toEqual(before);
    // The replaced draft became a restore point of its own, and Activity has one line for the restore.
    expect(await pointsOf(demo.websites.main)).toBe(2);
    const lines = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, demo.websites.main), eq(activity.tool, 'restore_point')));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.summary).toContain(pointId);
    await page.context().close();
  });

  it('is refused to a non-owner (editor, other tenant) and without the CSRF token; nothing is written', async () => {
    const demo = await suite.s.seed();
    const { pointId } = await merged(demo);
    const draft = await exportSite(db(), demo.websites.main, suite.s.url);
    const base = `/dashboard/sites/${demo.websites.main}/restore-points`;
    for (const [who, status] of [
      [demo.users.editor, 403],
      [demo.users.otherOwner, 404],
    ] as const) {
      const page = await signedIn(suite.browser, suite.s.url, who);
      expect((await page.goto(`${suite.s.url}${base}`))!.status()).toBe(status);
      expect((await page.goto(`${suite.s.url}${base}/${pointId}`))!.status()).toBe(status);
      // Post the restore anyway, with this user's own valid CSRF token (from the sign-out form).
      const posted = await page.evaluate(async (url) => {
        const csrf = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: csrf }),
        });
        return res.status;
      }, `${base}/${pointId}/restore`);
      expect(posted).toBe(status);
      await page.context().close();
    }
    // The owner's own form without its CSRF token.
    const page = await signedIn(suite.browser, suite.s.url, demo.users.owner);
    await page.goto(`${suite.s.url}${base}/${pointId}`);
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('form[action$="/restore"] input[name=_csrf]')) el.remove();
    });
    const [res] = await Promise.all([page.waitForResponse(/\/restore$/), page.click('#confirm-restore')]);
    expect(res.status()).toBe(403);
    await page.context().close();

    expect(await exportSite(db(), demo.websites.main, suite.s.url)).toEqual(draft);
    expect(await pointsOf(demo.websites.main)).toBe(1);
    const lines = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.websiteId, demo.websites.main), eq(activity.tool, 'restore_point')));
    expect(lines).toHaveLength(0);
  });

  it('is no tool: no connection, not even with every scope, can list or restore one', async () => {
    const demo = await suite.s.seed();
    const client = await suite.s.client(demo.tokens.all);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).filter((n) => /restore/.test(n))).toEqual([]);
    await client.close();
  });
});

describe('every owner page fits 390 and 1280 px and passes axe', () => {
  it('home, approvals, Developers, restore points and the restore confirmation', async () => {
    const demo = await suite.s.seed();
    const { pointId } = await merged(demo);
    await suite.s.call(demo.tokens.all, 'prepare_publish');
    const paths = [
      '/',
      '/approvals',
      '/settings/advanced/developers',
      `/dashboard/sites/${demo.websites.main}/restore-points`,
      `/dashboard/sites/${demo.websites.main}/restore-points/${pointId}`,
    ];
    for (const width of WIDTHS) {
      const page = await signedIn(suite.browser, suite.s.url, demo.users.owner, width);
      for (const path of paths) {
        await page.goto(`${suite.s.url}${path}`);
        expect(await overflowOf(page), `${path} at ${width}px`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `${path} at ${width}px`).toEqual([]);
      }
      // The Revoke control is reachable on screen at this width.
      await page.goto(`${suite.s.url}/settings/advanced/developers`);
      const box = await page.locator('#connections details.revoke summary').first().boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await page.context().close();
    }
    // Signed out, the home says what Sitegate is.
    const anon = await (await suite.browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
    await anon.goto(`${suite.s.url}/`);
    expect(await overflowOf(anon)).toBeLessThanOrEqual(0);
    await expect(anon.locator('h1').textContent()).resolves.toBe('Sitegate');
    await anon.context().close();
  }, 120_000);
});
