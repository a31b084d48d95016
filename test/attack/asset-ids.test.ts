// Attack suite, library asset ids (R-SEC-4): every place an asset id can enter content checks
// it with one validator. Another tenant's id and an id that exists nowhere get the same whole error
// object (`not_found`), and nothing is written; the site's own asset is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { base62 } from '../../src/kernel/ids.js';
import { assets } from '../../src/db/schema.js';
import { footprint } from '../portable/helpers.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const assetId = () => `asset_${base62(16)}`;

async function libraryAsset(websiteId: string): Promise<string> {
  const id = assetId();
  await s.sg.deps.services.db.insert(assets).values({
    id,
    websiteId,
    mime: 'image/png',
    bytes: 68,
    width: 1,
    height: 1,
    sha256: '0'.repeat(64),
    source: 'generated',
  });
  return id;
}

/** Each way an asset id can enter content, as the tool call that carries `id`. */
function carriers(d: Demo, id: string): Array<[string, Record<string, unknown>]> {
  const hero = { pageId: d.pages.home, sectionId: d.sections.hero };
  return [
    ['update_section_text', { ...hero, text: { subheading: `See [our menu](${id}).` } }],
    ['create_blog_post', { title: 'New post', body: `Here is [the photo](${id}).` }],
    ['add_section', { pageId: d.pages.home, type: 'image', content: { url: id, alt: 'Bread' } }],
    [
      'import_site',
      {
        site: {
          version: 1,
          name: 'Imported',
          businessName: 'Imported Co',
          pages: [
            {
              slug: 'home',
              title: 'Home',
              sections: [{ externalKey: 'a', type: 'image', content: { url: id, alt: 'Bread' } }],
            },
          ],
        },
      },
    ],
    [
      'import_site',
      {
        mergeIntoWebsiteId: d.websites.main,
        site: {
          version: 1,
          name: 'Merged',
          businessName: 'Merged Co',
          pages: [
            {
              slug: 'menu',
              title: 'Menu',
              sections: [
                { externalKey: 'b', type: 'text', content: { heading: 'Menu', body: `[photo](${id})` } },
              ],
            },
          ],
        },
      },
    ],
  ];
}

describe('asset ids entering content', () => {
  it("another tenant's asset and an unknown one: the same not_found from every writer, nothing written", async () => {
    const d = await s.seed();
    const foreign = await libraryAsset(d.websites.otherTenant);
    const unknown = assetId();
    const before = await footprint(s, d.companyId);
    const foreignCalls = carriers(d, foreign);
    const unknownCalls = carriers(d, unknown);
    for (let i = 0; i < foreignCalls.length; i += 1) {
      const [tool, args] = foreignCalls[i]!;
      const a = await s.call(d.tokens.all, tool, args);
      const b = await s.call(d.tokens.all, tool, unknownCalls[i]![1]);
      expect({ tool, ok: a.ok, code: a.error?.code }).toEqual({ tool, ok: false, code: 'not_found' });
      // Whole error objects compared: nothing tells a foreign id from one that does not exist.
      expect(a.error).toEqual(b.error);
    }
    // A replace through the advanced editor, too (its rev read first).
    const j = await s.call(d.tokens.all, 'get_section_json', {
      pageId: d.pages.home,
      sectionId: d.sections.hero,
    });
    const replace = (id: string) =>
      s.call(d.tokens.all, 'replace_section_content', {
        pageId: d.pages.home,
        sectionId: d.sections.hero,
        clientRev: j.data!.rev,
        content: { ...j.data!.content, subheading: `[x](${id})` },
      });
    const [ra, rb] = [await replace(foreign), await replace(unknown)];
    expect(ra.error?.code).toBe('not_found');
    expect(ra.error).toEqual(rb.error);
    expect(await footprint(s, d.companyId)).toEqual(before);
  });

  it("the site's own asset is accepted by the same writers", async () => {
    const d = await s.seed();
    const own = await libraryAsset(d.websites.main);
    const [text, post, add] = carriers(d, own);
    for (const [tool, args] of [text!, post!, add!]) {
      const r = await s.call(d.tokens.all, tool, args);
      expect({ tool, ok: r.ok, error: r.error }).toEqual({ tool, ok: true, error: undefined });
    }
  });
});
