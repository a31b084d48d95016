// Attack suite, cross-tenant ids: every tool that takes an id, given another tenant's real id, answers
// exactly (whole error object) what it answers for an id that exists nowhere, and writes nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { footprint } from '../portable/helpers.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

describe('cross-tenant ids', () => {
  it('each id-taking tool: another tenant’s id and a nonexistent one get the same error, nothing written', async () => {
    const d = await s.seed();
    const db = s.sg.deps.services.db;
    const other = d.tokens.other;
    // Real ids of the other tenant, made through its own connection where a tool makes them.
    const product = await s.call(other, 'create_product', { name: 'Rival cake', priceCents: 500 });
    const plan = await s.call(other, 'prepare_publish', {});
    const [lead] = await db
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.websiteId, d.websites.otherTenant));
    const foreign = {
      website: d.websites.otherTenant,
      page: d.pages.otherHome,
      section: d.sections.otherHero,
      lead: lead!.id,
      product: product.data!.productId as string,
      plan: plan.data!.planId as string,
    };
    const missing = {
      website: newId('site'),
      page: newId('page'),
      section: newId('sec'),
      lead: newId('lead'),
      product: newId('prod'),
      plan: newId('plan'),
    };
    type Ids = typeof foreign;
    const calls: Array<[string, (x: Ids) => Record<string, unknown>]> = [
      ['get_page', (x) => ({ pageId: x.page })],
      [
        'update_section_text',
        (x) => ({ pageId: x.page, sectionId: x.section, text: { heading: 'Mine now' } }),
      ],
      [
        'update_section_text',
        (x) => ({ pageId: d.pages.home, sectionId: x.section, text: { heading: 'Mine' } }),
      ],
      ['update_page_seo', (x) => ({ pageId: x.page, title: 'Taken' })],
      ['add_section', (x) => ({ pageId: x.page, type: 'text', content: { heading: 'Hi', body: 'There' } })],
      ['move_section', (x) => ({ pageId: x.page, sectionId: x.section, position: 0 })],
      ['set_section_hidden', (x) => ({ pageId: x.page, sectionId: x.section, hidden: true })],
      ['get_section_json', (x) => ({ pageId: x.page, sectionId: x.section })],
      [
        'replace_section_content',
        (x) => ({ pageId: x.page, sectionId: x.section, content: { heading: 'x' }, clientRev: 1 }),
      ],
      ['set_section_layout', (x) => ({ pageId: x.page, sectionId: x.section, layout: { width: 'wide' } })],
      ['crm_update', (x) => ({ record: 'lead', id: x.lead, note: 'mine' })],
      ['prepare_publish_product', (x) => ({ productId: x.product })],
      ['confirm_pending_action', (x) => ({ planId: x.plan })],
      ['list_pages', (x) => ({ websiteId: x.website })],
      ['get_site_overview', (x) => ({ websiteId: x.website })],
      ['list_leads', (x) => ({ websiteId: x.website })],
      ['update_business_name', (x) => ({ websiteId: x.website, name: 'Taken Over' })],
      ['create_page', (x) => ({ websiteId: x.website, title: 'Taken' })],
    ];
    const before = await footprint(s, d.otherCompanyId);
    const mine = await footprint(s, d.companyId);
    for (const token of [d.tokens.all, d.tokens.workspace]) {
      for (const [tool, args] of calls) {
        const a = await s.call(token, tool, args(foreign));
        const b = await s.call(token, tool, args(missing));
        expect({ tool, ok: a.ok }).toEqual({ tool, ok: false });
        expect({ tool, error: a.error }).toEqual({ tool, error: b.error });
        expect(a.error?.code === 'not_found' || a.error?.code === 'invalid_input').toBe(true);
      }
    }
    expect(await footprint(s, d.otherCompanyId)).toEqual(before);
    expect(await footprint(s, d.companyId)).toEqual(mine);
  });
});
