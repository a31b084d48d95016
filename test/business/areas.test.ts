// Agency areas (R-SURF-4): a withheld area refuses its tools even for a full-scope token.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import {
  assets,
  bookings,
  companies,
  contacts,
  domains,
  leads,
  products,
  services,
  websites,
} from '../../src/db/schema.js';
import { ALL_TOOLS } from '../../src/mcp/tools/index.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { setCompany, tokenFor } from './fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

async function snapshot(d: Demo) {
  const site = d.websites.main;
  return {
    company: await db().select().from(companies).where(eq(companies.id, d.companyId)).orderBy(companies.id),
    websites: await db()
      .select()
      .from(websites)
      .where(eq(websites.companyId, d.companyId))
      .orderBy(websites.id),
    leads: await db().select().from(leads).where(eq(leads.websiteId, site)).orderBy(leads.id),
    bookings: await db().select().from(bookings).where(eq(bookings.websiteId, site)).orderBy(bookings.id),
    contacts: await db().select().from(contacts).where(eq(contacts.websiteId, site)).orderBy(contacts.id),
    services: await db().select().from(services).where(eq(services.websiteId, site)).orderBy(services.id),
    products: await db().select().from(products).where(eq(products.websiteId, site)).orderBy(products.id),
    domains: await db().select().from(domains).where(eq(domains.websiteId, site)).orderBy(domains.id),
    assets: await db().select().from(assets).where(eq(assets.websiteId, site)).orderBy(assets.id),
  };
}

const CASES: Record<string, Array<[string, (d: Demo) => Promise<Record<string, unknown>>]>> = {
  crm: [
    ['list_leads', async () => ({})],
    ['list_bookings', async () => ({})],
    ['list_contacts', async () => ({})],
    [
      'crm_update',
      async (d) => ({
        record: 'lead',
        id: (await db().select().from(leads).where(eq(leads.websiteId, d.websites.main)))[0]!.id,
        handled: true,
      }),
    ],
  ],
  commerce: [
    ['list_services', async () => ({})],
    ['create_service', async () => ({ name: 'Withheld' })],
    ['list_products', async () => ({})],
    ['create_product', async () => ({ name: 'Withheld', priceCents: 100 })],
    ['get_commerce_overview', async () => ({})],
  ],
  settings: [['update_business_name', async () => ({ name: 'Withheld Name' })]],
  domains: [
    ['list_domains', async () => ({})],
    ['connect_domain', async () => ({ hostname: 'withheld.example' })],
    [
      'set_primary_domain',
      async (d) => ({
        hostname: (await db().select().from(domains).where(eq(domains.websiteId, d.websites.main)))[0]!
          .hostname,
      }),
    ],
  ],
  ai: [['generate_image', async () => ({ prompt: 'withheld image' })]],
  workspace: [['create_site', async () => ({})]],
};

describe('withheld agency areas', () => {
  it('every tool listed here belongs to the area the cases expect', () => {
    const byName = new Map(ALL_TOOLS.map((t) => [t.name, t.area]));
    for (const [area, cases] of Object.entries(CASES)) {
      for (const [tool] of cases) expect(byName.get(tool), tool).toBe(area);
    }
  });

  for (const [area, cases] of Object.entries(CASES)) {
    it(`withholding '${area}' refuses its tools for a full-scope token and changes nothing`, async () => {
      const d = await s.seed();
      const argsList = await Promise.all(cases.map(([, args]) => args(d)));
      await setCompany(db(), d.companyId, { withheldAreas: [area] });
      const before = await snapshot(d);
      for (const [i, [tool]] of cases.entries()) {
        const r = await s.call(d.tokens.all, tool, argsList[i]);
        expect(r.error?.code, tool).toBe('area_disabled');
        const ws = await s.call(
          d.tokens.workspace,
          tool,
          tool === 'create_site' ? {} : { ...argsList[i], websiteId: d.websites.main },
        );
        expect(ws.error?.code, `${tool} (workspace token)`).toBe('area_disabled');
      }
      expect(await snapshot(d)).toEqual(before);
      // Another area stays available.
      const other = area === 'crm' ? 'list_services' : 'list_leads';
      expect((await s.call(d.tokens.all, other, {})).ok).toBe(true);
    });
  }

  it('withholding invoicing leaves these tools on but hides document figures', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { withheldAreas: ['invoicing'] });
    const r = await s.call(d.tokens.all, 'get_commerce_overview', {});
    expect(r.data).toMatchObject({ openDocuments: null, documentsWithheld: true });
    expect((await s.call(d.tokens.all, 'list_leads', {})).ok).toBe(true);
  });
});

describe('the tool surface of the business areas', () => {
  const MINE = [
    'list_leads',
    'list_bookings',
    'list_contacts',
    'crm_update',
    'list_services',
    'create_service',
    'list_products',
    'create_product',
    'get_commerce_overview',
    'update_business_name',
    'list_domains',
    'connect_domain',
    'set_primary_domain',
    'generate_image',
    'create_site',
  ];

  it('lists every tool over MCP with its schemas; domains take hostnames, never ids', async () => {
    const c = await s.client(s.demo.tokens.all);
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of MINE) {
      expect(byName.has(name), name).toBe(true);
      // The output contract stays in the registry; tools/list carries input schemas only.
      expect(s.sg.deps.registry.get(name)!.outputSchema.type, name).toBe('object');
    }
    for (const name of ['list_domains', 'connect_domain', 'set_primary_domain']) {
      const props = Object.keys((byName.get(name)!.inputSchema.properties ?? {}) as object);
      expect(
        props.filter((p) => /id$/i.test(p) && p !== 'websiteId'),
        name,
      ).toEqual([]);
    }
    // create_site names nothing of the site (the name is the business name); only a retry key.
    expect(Object.keys(byName.get('create_site')!.inputSchema.properties ?? {})).toEqual(['idempotencyKey']);
  });

  it('offers no text generation, domain purchase/renewal/transfer/removal, or deletion of customer records', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    expect(ALL_TOOLS.filter((t) => t.scope === 'ai:generate').map((t) => t.name)).toEqual(['generate_image']);
    expect(names.filter((n) => /buy|renew|transfer|remove|delete|erase/.test(n))).toEqual([]);
    const dangerous = names.filter((n) => /(^|_)(text|copy)_?gen|generate_(text|copy|post)/.test(n));
    expect(dangerous).toEqual([]);
  });
});

describe('scope and role sweep over every tool of the business areas', () => {
  const VIEWER_EXPECT: Record<string, 'ok' | 'role_insufficient' | 'owner_only'> = {
    list_leads: 'ok',
    list_bookings: 'ok',
    list_contacts: 'ok',
    crm_update: 'role_insufficient',
    list_services: 'ok',
    create_service: 'role_insufficient',
    list_products: 'ok',
    create_product: 'role_insufficient',
    get_commerce_overview: 'ok',
    update_business_name: 'role_insufficient',
    list_domains: 'owner_only',
    connect_domain: 'owner_only',
    set_primary_domain: 'owner_only',
    generate_image: 'role_insufficient',
    create_site: 'role_insufficient',
  };

  it('the default scopes reach none of them, a viewer only the reads; nothing changes', async () => {
    const d = await s.seed();
    const args = new Map<string, Record<string, unknown>>();
    for (const cases of Object.values(CASES)) for (const [tool, make] of cases) args.set(tool, await make(d));
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    const before = await snapshot(d);
    for (const [tool, expected] of Object.entries(VIEWER_EXPECT)) {
      const a = args.get(tool)!;
      expect((await s.call(d.tokens.default, tool, a)).error?.code, `${tool} default scopes`).toBe(
        'scope_missing',
      );
      const r = await s.call(viewer, tool, a);
      if (expected === 'ok') expect(r.ok, `${tool} viewer`).toBe(true);
      else expect(r.error?.code, `${tool} viewer`).toBe(expected);
    }
    expect(await snapshot(d)).toEqual(before);
  });
});
