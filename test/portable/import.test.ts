// import_site end to end over MCP (R-IMP-1 to R-IMP-3): a full site round-trips; every cap, an HTML section, a
// bad asset and the plan's site limit are refused with their stable codes and leave nothing behind.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { activity, assets, companies, websiteMembers, websites } from '../../src/db/schema.js';
import { fetchAssets } from '../../src/portable/assets.js';
import { commitImport } from '../../src/portable/commit.js';
import { exportSite } from '../../src/portable/export.js';
import { BLOB_GRACE_MS, sweepBlobs } from '../../src/domain/library/blobs.js';
import { parsePortable } from '../../src/portable/prepare.js';
import { ASSET_CAPS } from '../../src/portable/schema.js';
import { createGuard } from '../../src/net/ssrf.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type AssetServer, bigSite, pixel, sampleSite, startAssetServer } from './fixtures.js';
import { footprint, siteCtx } from './helpers.js';

let s: TestServer;
let assetsSrv: AssetServer;
beforeAll(async () => {
  assetsSrv = await startAssetServer({
    '/img/huge.png': { type: 'image/png', body: Buffer.alloc(ASSET_CAPS.bytesEach + 1) },
    // Bytes no other test imports: only the rollback test below writes them.
    '/img/only-here.png': { type: 'image/png', body: await pixel('#0a1b2c') },
    '/img/polyglot.png': {
      type: 'image/png',
      body: Buffer.concat([await pixel('#abcdef'), Buffer.from('<script>alert(1)</script>')]),
    },
  });
  s = await startTestServer({ seed: false, env: { CRAWL_ALLOW_HOSTS: assetsSrv.hostPort } });
});
afterAll(async () => {
  await s?.close();
  await assetsSrv?.close();
});

/** The input as export should give it back: asset keys become the library ids import_site returned. */
function expectedExport(input: ReturnType<typeof sampleSite>, ids: Record<string, string>) {
  const byUrl = new Map(input.assets.map((a) => [a.url, a.key]));
  const ref = (v: string) => {
    if (v.startsWith('asset:')) return `asset:${ids[v.slice(6)]}`;
    const k = byUrl.get(v);
    return k ? `asset:${ids[k]}` : v;
  };
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? ref(v)
      : Array.isArray(v)
        ? v.map(walk)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return {
    ...input,
    brand: { ...input.brand, logo: `asset:${ids.logo}` },
    pages: input.pages.map((p) => ({
      ...p,
      sections: p.sections.map((x) => ({ ...x, content: walk(x.content) })),
    })),
    assets: undefined,
  };
}

describe('import_site', () => {
  it('imports a full site as a new draft owned by the caller, and it round-trips through get_page and exportSite', async () => {
    const demo = await s.workspace();
    const input = sampleSite(assetsSrv.base);
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: input,
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const id = r.data!.websiteId as string;
    expect(r.data!.editorUrl).toBe(`${s.url}/editor/${id}`);
    expect(r.data).toMatchObject({ mode: 'created', pages: 3, sections: 6 });
    const ids = r.data!.assets as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(['blue', 'green', 'logo', 'red']);

    const db = s.sg.deps.services.db;
    const [w] = await db.select().from(websites).where(eq(websites.id, id));
    expect(w).toMatchObject({ companyId: demo.companyId, publishedRev: null, searchVisible: false });
    const members = await db.select().from(websiteMembers).where(eq(websiteMembers.websiteId, id));
    expect(members).toEqual([expect.objectContaining({ userId: demo.users.owner.id, role: 'owner' })]);

    // get_page over MCP shows each page exactly as imported.
    const list = await s.call(demo.tokens.workspace, 'list_pages', { websiteId: id });
    expect(list.data!.pages.map((p: { slug: string }) => p.slug)).toEqual(['home', 'menu', 'news-opening']);
    const exp = expectedExport(input, ids);
    for (const [i, p] of list.data!.pages.entries()) {
      const page = await s.call(demo.tokens.workspace, 'get_page', { websiteId: id, pageId: p.pageId });
      expect(page.data!.seo).toEqual(exp.pages[i]!.seo);
      expect(
        page.data!.sections.map((x: Record<string, unknown>) => ({
          type: x.type,
          content: JSON.parse(
            JSON.stringify(x.content).replaceAll(/asset_[0-9A-Za-z]{16}/g, (m) => `asset:${m}`),
          ),
          layout: x.layout,
          hidden: x.hidden,
        })),
      ).toEqual(exp.pages[i]!.sections.map(({ externalKey: _k, ...rest }) => rest));
    }

    const exported = await exportSite(db, id, s.url);
    expect({ ...exported, assets: undefined }).toEqual(exp);
    expect(exported.assets.map((a) => a.key).sort()).toEqual(Object.values(ids).sort());
    // The export is itself a valid PortableSiteV1.
    expect(() => parsePortable(exported)).not.toThrow();

    await s.sg.deps.activity.flush();
    const lines = await db.select().from(activity).where(eq(activity.websiteId, demo.websites.main));
    expect(
      lines.some((l) => l.tool === 'import_site' && l.outcome === 'allowed' && l.summary.includes('3 pages')),
    ).toBe(true);
  });

  it('re-encodes assets: the stored blob is a freshly encoded image, not the fetched bytes', async () => {
    const demo = await s.workspace();
    const site = bigSite(1, 1);
    site.pages[0]!.sections.push({
      externalKey: 'pic',
      type: 'image',
      content: { url: 'asset:poly', alt: 'Poly' },
    } as never);
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: { ...site, assets: [{ key: 'poly', url: `${assetsSrv.base}/img/polyglot.png` }] },
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const id = (r.data!.assets as Record<string, string>).poly!;
    const [row] = await s.sg.deps.services.db.select().from(assets).where(eq(assets.id, id));
    expect(row).toMatchObject({ mime: 'image/png', width: 8, height: 6, source: 'import' });
    const blob = await s.sg.deps.services.blobs.get(row!.sha256);
    expect(blob!.length).toBe(row!.bytes);
    expect(blob!.includes(Buffer.from('<script>'))).toBe(false); // the trailing payload did not survive
    expect((await sharp(blob!).metadata()).format).toBe('png');
  });

  const caps: Array<[string, () => unknown]> = [
    ['pages', () => bigSite(251, 1)],
    ['sections on one page', () => bigSite(1, 101)],
    ['sections', () => bigSite(31, 100)],
    [
      'assets',
      () => ({
        ...bigSite(1, 1),
        assets: Array.from({ length: 101 }, (_, i) => ({
          key: `a${i}`,
          url: `${assetsSrv.base}/img/red.png?${i}`,
        })),
      }),
    ],
    ['bytes', () => ({ ...bigSite(1, 1), pad: 'x'.repeat(5 * 1024 * 1024 + 10) })],
  ];
  for (const [what, make] of caps) {
    it(`refuses a payload over the ${what} cap with payload_too_large and writes nothing`, async () => {
      const demo = await s.workspace();
      const before = await footprint(s, demo.companyId);
      const r = await s.call(demo.tokens.workspace, 'import_site', {
        websiteId: demo.websites.main,
        site: make(),
      });
      expect(r.error?.code).toBe('payload_too_large');
      expect(r.error?.message).toContain(what);
      expect(await footprint(s, demo.companyId)).toEqual(before);
    });
  }

  it('refuses an asset over the per-asset byte cap and writes nothing', async () => {
    const demo = await s.workspace();
    const before = await footprint(s, demo.companyId);
    const site = { ...bigSite(1, 1), assets: [{ key: 'huge', url: `${assetsSrv.base}/img/huge.png` }] };
    const r = await s.call(demo.tokens.workspace, 'import_site', { websiteId: demo.websites.main, site });
    expect(r.error?.code).toBe('invalid_input');
    expect(r.error?.message).toContain('too large');
    expect(await footprint(s, demo.companyId)).toEqual(before);
  });

  it('refuses a section with HTML, naming the section, and writes nothing', async () => {
    const demo = await s.workspace();
    const before = await footprint(s, demo.companyId);
    const site = bigSite(2, 2);
    site.pages[1]!.sections[1]!.content = { heading: 'Hi', body: 'Hello <script>alert(1)</script>' };
    const r = await s.call(demo.tokens.workspace, 'import_site', { websiteId: demo.websites.main, site });
    expect(r.error?.code).toBe('invalid_input');
    expect(r.error?.message).toContain('"p1-s1"');
    expect(r.error?.message).toContain('HTML');
    expect(await footprint(s, demo.companyId)).toEqual(before);
  });

  it('refuses CSS-like settings and unknown asset keys with invalid_input', async () => {
    const demo = await s.workspace();
    const before = await footprint(s, demo.companyId);
    const css = { ...bigSite(1, 1), theme: { custom: 'body { display:none; }' } };
    expect(
      (await s.call(demo.tokens.workspace, 'import_site', { websiteId: demo.websites.main, site: css })).error
        ?.code,
    ).toBe('invalid_input');
    const ghost = bigSite(1, 1);
    ghost.pages[0]!.sections[0] = {
      externalKey: 'img',
      type: 'image',
      content: { url: 'asset:nope', alt: 'x' },
    } as never;
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: ghost,
    });
    expect(r.error?.code).toBe('invalid_input');
    expect(r.error?.message).toContain('"img"');
    expect(await footprint(s, demo.companyId)).toEqual(before);
  });

  it('a failing asset in the middle leaves nothing behind: no website, no asset rows, no blobs', async () => {
    const demo = await s.workspace();
    const before = await footprint(s, demo.companyId);
    const site = sampleSite(assetsSrv.base, 'c');
    site.assets.splice(2, 0, { key: 'fake', url: `${assetsSrv.base}/img/fake.png` });
    const r = await s.call(demo.tokens.workspace, 'import_site', { websiteId: demo.websites.main, site });
    expect(r.error?.code).toBe('invalid_input');
    expect(r.error?.message).toContain('"fake"');
    expect(await footprint(s, demo.companyId)).toEqual(before);

    const missing = sampleSite(assetsSrv.base, 'd');
    missing.assets[1]!.url = `${assetsSrv.base}/img/missing.png`;
    const r2 = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: missing,
    });
    expect(r2.error?.code).toBe('invalid_input');
    expect(await footprint(s, demo.companyId)).toEqual(before);

    const ssrf = sampleSite(assetsSrv.base, 'e');
    ssrf.assets[1]!.url = 'http://169.254.169.254/latest/meta-data/x.png';
    const r3 = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: ssrf,
    });
    expect(r3.error?.code).toBe('unsafe_url');
    expect(await footprint(s, demo.companyId)).toEqual(before);
  });

  it('a failure inside the committing transaction writes no rows and deletes no bytes; the sweep takes the unreferenced ones later', async () => {
    const demo = await s.workspace();
    const ctx = await siteCtx(s, demo);
    const input = sampleSite(assetsSrv.base, 'f');
    input.assets.push({ key: 'only-here', url: `${assetsSrv.base}/img/only-here.png` });
    const site = parsePortable(input);
    const guard = createGuard({ allowHosts: [assetsSrv.hostPort] });
    const fetched = await fetchAssets(guard, site.assets, { strict: true });
    await guard.close();
    // The plan fills up between the early check and the commit (another import won the race).
    await s.sg.deps.services.db
      .update(companies)
      .set({ siteLimit: 2 })
      .where(eq(companies.id, demo.companyId));
    const blobs = s.sg.deps.services.blobs;
    const before = await footprint(s, demo.companyId);
    await expect(
      commitImport(ctx, site, fetched, { authorizeTarget: async () => ctx.website }),
    ).rejects.toMatchObject({ code: 'site_limit_reached' });
    const { blobs: _b, ...rows } = before;
    const { blobs: _a, ...rowsAfter } = await footprint(s, demo.companyId);
    expect(rowsAfter).toEqual(rows);
    // Its bytes stay: another import committing the same image at this moment may need them (R-REL-1).
    const mine = [...fetched.images.values()].map((i) => createHash('sha256').update(i.bytes).digest('hex'));
    for (const sha of mine) expect(await blobs.get(sha)).not.toBeNull();
    expect(mine.length).toBe(site.assets.length);
    const db = s.sg.deps.services.db;
    // On PostgreSQL the blob table is shared with every test file running beside this one: sweep only
    // this import's bytes, so another file's bytes (perhaps mid-import) are never this test's to take.
    const ours: typeof blobs = {
      ...blobs,
      olderThan: async (cutoff) => (await blobs.olderThan(cutoff)).filter((sha) => mine.includes(sha)),
    };
    // Within the grace period the sweep keeps them; after it, only those no asset row names go.
    expect(await sweepBlobs(ours, db, new Date())).toBe(0);
    await sweepBlobs(ours, db, new Date(Date.now() + BLOB_GRACE_MS + 60_000));
    const after = new Set(await blobs.list());
    const referenced = new Set(
      (await db.selectDistinct({ sha: assets.sha256 }).from(assets)).map((r) => r.sha),
    );
    for (const sha of mine) expect(after.has(sha)).toBe(referenced.has(sha));
  });

  it("enforces the plan's site limit with site_limit_reached", async () => {
    const demo = await s.workspace(); // plan allows 3 sites, 2 exist
    const ok = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: bigSite(1, 1),
    });
    expect(ok.ok).toBe(true);
    const before = await footprint(s, demo.companyId);
    expect(before.websites).toBe(3);
    const r = await s.call(demo.tokens.workspace, 'import_site', {
      websiteId: demo.websites.main,
      site: bigSite(1, 1),
    });
    expect(r.error?.code).toBe('site_limit_reached');
    expect(await footprint(s, demo.companyId)).toEqual(before);
  });

  it('serves the format as JSON Schema', async () => {
    const res = await fetch(`${s.url}/schemas/portable-site-v1.json`);
    expect(res.status).toBe(200);
    const schema = (await res.json()) as {
      title: string;
      properties: Record<string, unknown>;
      $defs: { sectionContent: object };
    };
    expect(schema.title).toBe('PortableSiteV1');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['version', 'pages', 'assets']));
    expect(Object.keys((schema as { $defs: { sectionContent: object } }).$defs.sectionContent)).toContain(
      'hero',
    );
  });
});
