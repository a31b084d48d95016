import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands, pages, websiteMembers, websites } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { setCompany, tokenFor } from './fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const sitesOf = async (companyId: string) =>
  Number((await db().select({ n: count() }).from(websites).where(eq(websites.companyId, companyId)))[0]!.n);

describe('create_site', () => {
  it('creates one empty, unpublished draft named after the business, owned by the creator', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { name: 'Harbor Bakery & Co' });
    const r = await s.call(d.tokens.all, 'create_site', {});
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({ name: 'Harbor Bakery & Co', published: false, pages: 0 });
    const id = r.data!.websiteId as string;
    const [site] = await db().select().from(websites).where(eq(websites.id, id));
    expect(site).toMatchObject({
      companyId: d.companyId,
      publishedRev: null,
      searchVisible: false,
    });
    expect(await db().select().from(pages).where(eq(pages.websiteId, id))).toEqual([]);
    expect(await db().select().from(brands).where(eq(brands.websiteId, id))).toEqual([]);
    expect(await db().select().from(websiteMembers).where(eq(websiteMembers.websiteId, id))).toEqual([
      expect.objectContaining({ userId: d.users.owner.id, role: 'owner' }),
    ]);
    const list = await s.call(d.tokens.workspace, 'list_sites', {});
    expect(list.data!.sites.map((x: { websiteId: string }) => x.websiteId)).toContain(id);
  });

  it('10 concurrent calls at one below the plan limit create exactly one site', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { siteLimit: 3 }); // the workspace has 2 sites
    const results = await Promise.all(
      Array.from({ length: 10 }, () => s.call(d.tokens.all, 'create_site', {})),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => r.error?.code === 'site_limit_reached')).toBe(true);
    expect(await sitesOf(d.companyId)).toBe(3);
  });

  it('refuses at the limit, with websiteId, without the scope or as a viewer, creating nothing', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { siteLimit: 2 });
    const r = await s.call(d.tokens.all, 'create_site', {});
    expect(r.error?.code).toBe('site_limit_reached');
    expect(r.error?.message).toMatch(/pro plan allows 2/);
    await setCompany(db(), d.companyId, { siteLimit: 10 });
    expect((await s.call(d.tokens.all, 'create_site', { websiteId: d.websites.main })).error?.code).toBe(
      'invalid_input',
    );
    expect((await s.call(d.tokens.all, 'create_site', { name: 'Invented' })).error?.code).toBe(
      'invalid_input',
    );
    expect((await s.call(d.tokens.default, 'create_site', {})).error?.code).toBe('scope_missing');
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    expect((await s.call(viewer, 'create_site', {})).error?.code).toBe('role_insufficient');
    expect(await sitesOf(d.companyId)).toBe(2);
  });

  it('creates in the connection’s own workspace only', async () => {
    const d = await s.seed();
    const before = await sitesOf(d.otherCompanyId);
    const r = await s.call(d.tokens.other, 'create_site', {});
    // The rival's starter plan allows 1 site and it has 1.
    expect(r.error?.code).toBe('site_limit_reached');
    await setCompany(db(), d.otherCompanyId, { siteLimit: 2 });
    const ok = await s.call(d.tokens.other, 'create_site', {});
    const [site] = await db().select().from(websites).where(eq(websites.id, ok.data!.websiteId));
    expect(site!.companyId).toBe(d.otherCompanyId);
    expect(site!.name).toBe('Rival Cafe');
    expect(await sitesOf(d.otherCompanyId)).toBe(before + 1);
    expect(await sitesOf(d.companyId)).toBe(2);
  });

  it('has its own per-workspace bucket', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { siteLimit: 100 });
    let limited = 0;
    for (let i = 0; i < 22; i++) {
      if ((await s.call(d.tokens.all, 'create_site', {})).error?.code === 'rate_limited') limited++;
    }
    expect(limited).toBe(2);
    expect(await sitesOf(d.companyId)).toBe(22);
  });
});
