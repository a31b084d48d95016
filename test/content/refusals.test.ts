// Every refusal of the content:write surface over MCP, each with its stable error code and a read-back
// proving nothing was written: scope off, demoted creator, withheld area, missing advanced-editor grant,
// records of another page/site, unsafe or mistyped content.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/auth/connections.js';
import type { Demo } from '../../src/demo/seed.js';
import { activity, companies, websiteMembers } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { siteState } from './state.js';

let s: TestServer;
const db = () => s.sg.deps.services.db;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

type Args = (d: Demo) => Record<string, unknown>;
const TOOLS: Record<string, Args> = {
  update_section_text: (d) => ({ pageId: d.pages.home, sectionId: d.sections.hero, text: { heading: 'X' } }),
  update_page_seo: (d) => ({ pageId: d.pages.about, title: 'X' }),
  add_section: (d) => ({ pageId: d.pages.home, type: 'text', content: { body: 'x' } }),
  move_section: (d) => ({ pageId: d.pages.home, sectionId: d.sections.hero, position: 1 }),
  set_section_hidden: (d) => ({ pageId: d.pages.home, sectionId: d.sections.hero, hidden: true }),
  create_page: () => ({ title: 'New page' }),
  create_blog_post: () => ({ title: 'Post', body: 'Body' }),
  get_section_json: (d) => ({ pageId: d.pages.home, sectionId: d.sections.hero }),
  replace_section_content: (d) => ({
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    content: { heading: 'X' },
    clientRev: 1,
  }),
  set_section_layout: (d) => ({
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    layout: { width: 'wide' },
  }),
};
const ADVANCED = ['get_section_json', 'replace_section_content', 'set_section_layout'];

/** Calls, expects the refusal code, and proves the site's pages, sections and revisions are unchanged. */
async function refused(d: Demo, token: string, tool: string, args: Record<string, unknown>, code: string) {
  const before = await siteState(db(), d.websites.main);
  const r = await s.call(token, tool, args);
  expect(r.ok, `${tool} should be refused`).toBe(false);
  expect(r.error?.code, `${tool}: ${r.error?.message}`).toBe(code);
  expect(await siteState(db(), d.websites.main)).toBe(before);
}

async function deniedLines(connectionId: string, code: string): Promise<number> {
  await s.sg.deps.activity.flush();
  const rows = await db()
    .select()
    .from(activity)
    .where(
      and(eq(activity.connectionId, connectionId), eq(activity.code, code), eq(activity.outcome, 'denied')),
    );
  return rows.length;
}

describe('authorization refusals (gate)', () => {
  it('scope_missing on a connection without content:write (and the tools are not listed)', async () => {
    const d = await s.seed();
    const { token, connection } = await createConnection(db(), {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'read only',
      scopes: ['site:read'],
    });
    for (const [tool, args] of Object.entries(TOOLS))
      await refused(d, token!, tool, args(d), 'scope_missing');
    expect(await deniedLines(connection.id, 'scope_missing')).toBe(Object.keys(TOOLS).length);
    const listed = (await (await s.client(token!)).listTools()).tools.map((t) => t.name);
    for (const tool of Object.keys(TOOLS)) expect(listed).not.toContain(tool);
  });

  it('role_insufficient when the connection creator is now a viewer', async () => {
    const d = await s.seed();
    await db()
      .update(websiteMembers)
      .set({ role: 'viewer' })
      .where(and(eq(websiteMembers.websiteId, d.websites.main), eq(websiteMembers.userId, d.users.owner.id)));
    for (const [tool, args] of Object.entries(TOOLS)) {
      await refused(d, d.tokens.default, tool, args(d), 'role_insufficient');
    }
    // Reading still works for a viewer.
    expect((await s.call(d.tokens.default, 'list_pages')).ok).toBe(true);
  });

  it('area_disabled when the agency withholds the content area', async () => {
    const d = await s.seed();
    await db()
      .update(companies)
      .set({ withheldAreas: ['content'] })
      .where(eq(companies.id, d.companyId));
    for (const [tool, args] of Object.entries(TOOLS))
      await refused(d, d.tokens.all, tool, args(d), 'area_disabled');
    expect(await deniedLines(d.connections.all, 'area_disabled')).toBe(Object.keys(TOOLS).length);
  });

  it('advanced_editor_required (logged) for the advanced tools only, when the grant is off', async () => {
    const d = await s.seed();
    await db().update(companies).set({ advancedEditor: false }).where(eq(companies.id, d.companyId));
    for (const tool of ADVANCED) {
      await refused(d, d.tokens.default, tool, TOOLS[tool]!(d), 'advanced_editor_required');
    }
    expect(await deniedLines(d.connections.default, 'advanced_editor_required')).toBe(ADVANCED.length);
    const ok = await s.call(d.tokens.default, 'update_section_text', TOOLS.update_section_text!(d));
    expect(ok.ok).toBe(true);
  });
});

describe('records of another page or site are not_found', () => {
  let d: Demo;
  beforeAll(async () => {
    d = await s.seed();
  });

  it('a section named with the wrong page, another site, or another tenant', async () => {
    const other = await s.seed();
    const cases = [
      { pageId: d.pages.about, sectionId: d.sections.hero }, // section of another page
      { pageId: d.pages.otherHome, sectionId: d.sections.otherHero }, // other tenant's page and section
      { pageId: d.pages.home, sectionId: other.sections.hero }, // another workspace's section
      { pageId: d.pages.home, sectionId: 'sec_doesnotexist00' },
    ];
    for (const tool of Object.keys(TOOLS).filter((t) => 'sectionId' in TOOLS[t]!(d))) {
      for (const ids of cases) {
        await refused(d, d.tokens.default, tool, { ...TOOLS[tool]!(d), ...ids }, 'not_found');
      }
    }
  });

  it('a page of another site for the page tools, and another tenant websiteId for any tool', async () => {
    for (const tool of ['update_page_seo', 'add_section']) {
      await refused(
        d,
        d.tokens.default,
        tool,
        { ...TOOLS[tool]!(d), pageId: d.pages.otherHome },
        'not_found',
      );
    }
    for (const [tool, args] of Object.entries(TOOLS)) {
      await refused(
        d,
        d.tokens.workspace,
        tool,
        { ...args(d), websiteId: d.websites.otherTenant },
        'not_found',
      );
    }
  });
});

describe('unsafe or mistyped content is invalid_input and writes nothing', () => {
  let d: Demo;
  beforeAll(async () => {
    d = await s.seed();
  });
  const BAD_HERO: Array<[string, Record<string, unknown>]> = [
    ['script tag', { heading: '<script>alert(1)</script>' }],
    ['script split by spaces', { heading: '< script >alert(1)</ script>' }],
    ['html with inline style', { heading: '<p style="color:red">Hi</p>' }],
    ['inline style as a key', { heading: 'Hi', style: 'color:red' }],
    ['css as a key', { heading: 'Hi', css: 'body{display:none}' }],
    ['javascript: button', { heading: 'Hi', buttonLabel: 'Go', buttonUrl: 'javascript:alert(1)' }],
    ['JaVaScRiPt: with spaces', { heading: 'Hi', buttonLabel: 'Go', buttonUrl: ' JaVaScRiPt:alert(1)' }],
    ['protocol-relative url', { heading: 'Hi', buttonLabel: 'Go', buttonUrl: '//evil.example/x' }],
    ['data: image', { heading: 'Hi', imageUrl: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['javascript: markdown link', { heading: 'Hi', subheading: 'Click [here](javascript:alert(1))' }],
    ['data: markdown link', { heading: 'Hi', subheading: '[x](data:text/html,<b>x</b>)' }],
    ['event handler text', { heading: '<img src=x onerror=alert(1)>' }],
    ["another type's content", { body: 'This is a text section body.' }],
    // An unknown asset id is not_found, like another tenant's: test/attack/asset-ids.test.ts.
    ['control character', { heading: 'Hi\u0007' }],
  ];

  it('replace_section_content refuses each and the hero stays as it was', async () => {
    const j = await s.call(d.tokens.default, 'get_section_json', {
      pageId: d.pages.home,
      sectionId: d.sections.hero,
    });
    for (const [label, content] of BAD_HERO) {
      const args = { pageId: d.pages.home, sectionId: d.sections.hero, content, clientRev: j.data?.rev };
      await refused(d, d.tokens.default, 'replace_section_content', args, 'invalid_input').catch((e) => {
        throw new Error(`${label}: ${e.message}`);
      });
    }
  });

  it('add_section refuses each as hero content, and a type that does not exist', async () => {
    for (const [, content] of BAD_HERO.filter(([l]) => l !== "another type's content")) {
      await refused(
        d,
        d.tokens.default,
        'add_section',
        { pageId: d.pages.home, type: 'hero', content },
        'invalid_input',
      );
    }
    await refused(
      d,
      d.tokens.default,
      'add_section',
      { pageId: d.pages.home, type: 'html', content: {} },
      'invalid_input',
    );
  });

  it('update_section_text and create_blog_post refuse markup and script links', async () => {
    for (const text of [
      { heading: '<script>alert(1)</script>' },
      { subheading: 'see [me](javascript:alert(1))' },
      { heading: '<a href="x" onclick="y">x</a>' },
    ]) {
      await refused(
        d,
        d.tokens.default,
        'update_section_text',
        { pageId: d.pages.home, sectionId: d.sections.hero, text },
        'invalid_input',
      );
    }
    for (const body of [
      '<script>alert(1)</script>',
      'Hi [x](javascript:alert(1))',
      '<div style="x">y</div>',
    ]) {
      await refused(d, d.tokens.default, 'create_blog_post', { title: 'T', body }, 'invalid_input');
    }
    await refused(
      d,
      d.tokens.default,
      'update_page_seo',
      { pageId: d.pages.home, title: '<b>x</b>' },
      'invalid_input',
    );
    await refused(
      d,
      d.tokens.default,
      'update_page_seo',
      { pageId: d.pages.home, description: 'javascript:alert(1)' },
      'invalid_input',
    );
    await refused(
      d,
      d.tokens.default,
      'create_page',
      { title: '<script>alert(1)</script>' },
      'invalid_input',
    );
    await refused(d, d.tokens.default, 'create_page', { title: 'Ok', slug: 'a/../b' }, 'invalid_input');
    await refused(
      d,
      d.tokens.default,
      'create_blog_post',
      { title: 'T', body: 'ok', excerpt: '<i>x</i>' },
      'invalid_input',
    );
  });
  // stale_revision: test/tools/replace_section_content.test.ts.
});
