// tools/list fits an agent's context and tells the truth (R-TOOL-6): at full scope at most 40 KB
// with every input schema complete, and only what this connection could run — one test per filter:
// scope, the creator's role, the areas the agency withheld, the advanced-editor grant. The gate still
// decides each call, so every listed tool is shown to pass it and a hidden one to be refused.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/auth/connections.js';
import { companies, websiteMembers } from '../../src/db/schema.js';
import { KINDS } from '../../src/plans/kinds/index.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const names = async (token: string) =>
  (await (await s.client(token)).listTools()).tools.map((t) => t.name).sort();
const allNames = () =>
  s.sg.deps.registry
    .all()
    .map((t) => t.def.name)
    .sort();
const ADVANCED = ['get_section_json', 'replace_section_content', 'set_section_layout'];

describe('tools/list budget', () => {
  it('is at most 40 KB of JSON at full scope, every tool listed with its complete input schema', async () => {
    const c = await s.client(s.demo.tokens.all);
    const { tools } = await c.listTools();
    const bytes = Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
    expect(bytes).toBeLessThanOrEqual(40 * 1024);
    expect(tools.map((t) => t.name).sort()).toEqual(allNames());
    for (const t of tools) {
      // Complete: exactly the JSON Schema generated from the tool's zod input, nothing trimmed.
      expect(t.inputSchema).toEqual(s.sg.deps.registry.get(t.name)!.listing.inputSchema);
      expect(t.inputSchema.additionalProperties).toBe(false);
    }
    // And that schema is the one the call path validates with: a required field the listing names
    // is really required.
    const getPage = tools.find((t) => t.name === 'get_page')!;
    expect(getPage.inputSchema.required).toContain('pageId');
    const r = await s.call(s.demo.tokens.all, 'get_page', {});
    expect(r.error?.code).toBe('invalid_input');
  });

  it('confirm_pending_action declares how it is authorized for each plan kind', async () => {
    const { tools } = await (await s.client(s.demo.tokens.all)).listTools();
    const confirm = tools.find((t) => t.name === 'confirm_pending_action')!;
    for (const k of Object.values(KINDS)) {
      expect(confirm.description).toContain(`${k.kind}: ${k.rule.scope}, ${k.rule.role}`);
    }
  });
});

describe('tools/list lists only what the connection could run', () => {
  it('by scope: a connection with site:read and crm:read lists only those tools', async () => {
    const d = await s.seed();
    const { token } = await createConnection(db(), {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      name: 'crm reader',
      scopes: ['crm:read'],
    });
    const listed = await names(token!);
    const expected = s.sg.deps.registry
      .all()
      .filter(
        (t) => ['site:read', 'crm:read'].includes(t.def.scope) && t.def.name !== 'confirm_pending_action',
      )
      .map((t) => t.def.name)
      .sort();
    expect(listed).toEqual(expected);
    // A hidden tool is really refused by the gate.
    expect((await s.call(token!, 'crm_update', { record: 'lead', id: 'x', handled: true })).error?.code).toBe(
      'scope_missing',
    );
  });

  it("by the creator's role: owner-only tools disappear when the creator becomes an editor, writes when a viewer", async () => {
    const d = await s.seed();
    const ownerOnly = s.sg.deps.registry
      .all()
      .filter((t) => t.def.role === 'owner')
      .map((t) => t.def.name);
    expect(ownerOnly).toContain('connect_domain');
    expect(await names(d.tokens.all)).toEqual(expect.arrayContaining(ownerOnly));

    const setRole = (role: string) =>
      db()
        .update(websiteMembers)
        .set({ role })
        .where(
          and(eq(websiteMembers.websiteId, d.websites.main), eq(websiteMembers.userId, d.users.owner.id)),
        );
    await setRole('editor');
    const asEditor = await names(d.tokens.all);
    for (const n of ownerOnly) expect(asEditor).not.toContain(n);
    expect(asEditor).toContain('update_section_text');
    expect((await s.call(d.tokens.all, 'connect_domain', { hostname: 'shop.example.com' })).error?.code).toBe(
      'owner_only',
    );

    await setRole('viewer');
    const asViewer = await names(d.tokens.all);
    for (const n of asViewer) expect(s.sg.deps.registry.get(n)!.def.role).toBe('viewer');
    expect(asViewer).toContain('get_page');
    expect(asViewer).not.toContain('update_section_text');
    // No plan kind is redeemable by a viewer, so confirm_pending_action is not offered.
    expect(asViewer).not.toContain('confirm_pending_action');
  });

  it('by withheld area: the crm and invoicing areas switched off hide their tools', async () => {
    const d = await s.seed();
    const before = await names(d.tokens.all);
    expect(before).toContain('list_leads');
    await db()
      .update(companies)
      .set({ withheldAreas: ['crm', 'invoicing'] })
      .where(eq(companies.id, d.companyId));
    const after = await names(d.tokens.all);
    const hidden = s.sg.deps.registry
      .all()
      .filter((t) => ['crm', 'invoicing'].includes(t.def.area))
      .map((t) => t.def.name);
    expect(hidden.length).toBeGreaterThan(4);
    for (const n of hidden) expect(after).not.toContain(n);
    expect(after.length).toBe(before.length - hidden.length);
    expect((await s.call(d.tokens.all, 'list_leads')).error?.code).toBe('area_disabled');
  });

  it('by the advanced-editor grant: the three advanced tools appear only with it', async () => {
    const d = await s.seed();
    expect(await names(d.tokens.default)).toEqual(expect.arrayContaining(ADVANCED));
    await db().update(companies).set({ advancedEditor: false }).where(eq(companies.id, d.companyId));
    const without = await names(d.tokens.default);
    for (const n of ADVANCED) expect(without).not.toContain(n);
    expect(without).toContain('update_section_text');
    expect(
      (
        await s.call(d.tokens.default, 'get_section_json', {
          pageId: d.pages.home,
          sectionId: d.sections.hero,
        })
      ).error?.code,
    ).toBe('advanced_editor_required');
  });
});
