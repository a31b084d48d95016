import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import {
  activity,
  bookings,
  companies,
  documents,
  mailOutbox,
  products,
  services,
} from '../../src/db/schema.js';
import { weekOf } from '../../src/domain/commerce/overview.js';
import { normaliseBusinessName } from '../../src/domain/settings/business-name.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { company, setCompany, tokenFor } from './fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const productsOf = (site: string) =>
  db().select().from(products).where(eq(products.websiteId, site)).orderBy(products.id);
const servicesOf = (site: string) =>
  db().select().from(services).where(eq(services.websiteId, site)).orderBy(services.id);

describe('services and products', () => {
  it('creates a draft service that charges no one and sends nothing, and lists it', async () => {
    const d = await s.seed();
    const outbox = (await db().select().from(mailOutbox)).length;
    const r = await s.call(d.tokens.all, 'create_service', {
      name: '  Sourdough class ',
      description: 'Three hours',
      priceCents: 6000,
      currency: 'USD',
      durationMinutes: 180,
    });
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({
      name: 'Sourdough class',
      status: 'draft',
      priceCents: 6000,
      currency: 'USD',
    });
    const list = await s.call(d.tokens.all, 'list_services', {});
    expect(list.data!.services.map((x: { serviceId: string }) => x.serviceId)).toContain(r.data!.serviceId);
    expect((await db().select().from(mailOutbox)).length).toBe(outbox);
    const minimal = await s.call(d.tokens.all, 'create_service', { name: 'Tasting' });
    expect(minimal.data).toMatchObject({
      priceCents: null,
      durationMinutes: null,
      currency: 'EUR',
      status: 'draft',
    });
  });

  it('creates a draft product at revision 1, never public', async () => {
    const d = await s.seed();
    const r = await s.call(d.tokens.all, 'create_product', { name: 'Rye loaf', priceCents: 550 });
    expect(r.data).toMatchObject({ status: 'draft', revision: 1, publishedRevision: null, currency: 'EUR' });
    const [row] = await db().select().from(products).where(eq(products.id, r.data!.productId));
    expect(row).toMatchObject({ status: 'draft', revision: 1, websiteId: d.websites.main });
    const list = await s.call(d.tokens.all, 'list_products', {});
    expect(list.data!.products).toHaveLength(3);
  });

  it('refuses invalid drafts and callers without the scope or role, writing nothing', async () => {
    const d = await s.seed();
    const beforeP = await productsOf(d.websites.main);
    const beforeS = await servicesOf(d.websites.main);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['create_product', { name: 'No price' }],
      ['create_product', { name: 'Neg', priceCents: -1 }],
      ['create_product', { name: 'Float', priceCents: 1.5 }],
      ['create_product', { name: 'Cur', priceCents: 1, currency: 'euro' }],
      ['create_product', { name: '   ', priceCents: 1 }],
      ['create_product', { name: 'Public', priceCents: 1, status: 'public' }],
      ['create_service', { name: 'x'.repeat(121) }],
      ['create_service', { name: 'Dur', durationMinutes: 0 }],
    ];
    for (const [tool, args] of bad)
      expect((await s.call(d.tokens.all, tool, args)).error?.code).toBe('invalid_input');
    expect((await s.call(d.tokens.default, 'create_product', { name: 'A', priceCents: 1 })).error?.code).toBe(
      'scope_missing',
    );
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    expect((await s.call(viewer, 'create_service', { name: 'A' })).error?.code).toBe('role_insufficient');
    expect((await s.call(viewer, 'list_services', {})).ok).toBe(true);
    expect(await productsOf(d.websites.main)).toEqual(beforeP);
    expect(await servicesOf(d.websites.main)).toEqual(beforeS);
  });
});

describe('get_commerce_overview', () => {
  it('gives counts without personal data', async () => {
    const d = await s.seed();
    const r = await s.call(d.tokens.all, 'get_commerce_overview', {});
    expect(r.ok).toBe(true);
    expect(r.data!.services).toEqual({ draft: 1, public: 1, total: 2 });
    expect(r.data!.products).toEqual({ draft: 1, public: 1, total: 2 });
    expect(r.data!.openDocuments).toEqual([
      { kind: 'invoice', status: 'draft', count: 1 },
      { kind: 'invoice', status: 'sent', count: 1 },
      { kind: 'quote', status: 'draft', count: 1 },
    ]);
    expect(r.data!.documentsWithheld).toBe(false);
    const text = JSON.stringify(r.data);
    expect(text).not.toMatch(/@|Pat|Lee|Jo Baker|INV-/);
  });

  it('counts bookings of this week only (Monday to Sunday, UTC)', async () => {
    const d = await s.seed();
    const wk = weekOf(new Date());
    await db().delete(bookings).where(eq(bookings.websiteId, d.websites.main));
    const at = (ms: number) => ({
      id: newId('bkg'),
      websiteId: d.websites.main,
      status: 'confirmed',
      customerName: 'X',
      startsAt: new Date(ms),
      endsAt: new Date(ms + 3600_000),
    });
    await db()
      .insert(bookings)
      .values([
        at(wk.from.getTime()),
        at(wk.to.getTime() - 1),
        at(wk.to.getTime()),
        at(wk.from.getTime() - 1),
      ]);
    const r = await s.call(d.tokens.all, 'get_commerce_overview', {});
    expect(r.data!.bookingsThisWeek.count).toBe(2);
    expect(weekOf(new Date('2026-11-22T23:00:00Z')).from.toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(weekOf(new Date('2026-11-16T00:00:00Z')).from.toISOString()).toBe('2026-11-16T00:00:00.000Z');
  });

  it('omits every document figure when the agency withheld invoicing', async () => {
    const d = await s.seed();
    await setCompany(db(), d.companyId, { withheldAreas: ['invoicing'] });
    const r = await s.call(d.tokens.all, 'get_commerce_overview', {});
    expect(r.ok).toBe(true);
    expect(r.data!.openDocuments).toBeNull();
    expect(r.data!.documentsWithheld).toBe(true);
    expect(JSON.stringify(r.data)).not.toMatch(/invoice|quote/);
    expect(r.data!.products.total).toBe(2);
    const docs = await db().select().from(documents).where(eq(documents.websiteId, d.websites.main));
    expect(docs).toHaveLength(3);
  });
});

describe('update_business_name', () => {
  it('normalises: trims, collapses spaces, strips invisible characters, bounds the length', () => {
    expect(normaliseBusinessName('  Harbor \u200b  Bakery\n')).toBe('Harbor Bakery');
    expect(normaliseBusinessName('Café Ümlaut 🍞')).toBe('Café Ümlaut 🍞');
    expect(() => normaliseBusinessName('   ')).toThrow(/empty/);
    expect(() => normaliseBusinessName('x'.repeat(101))).toThrow(/at most 100/);
    expect(() => normaliseBusinessName('bad\u0007bell')).toThrow(/control/);
    expect(normaliseBusinessName('x'.repeat(100))).toHaveLength(100);
  });

  it('renames the company and logs no name', async () => {
    const d = await s.seed();
    const r = await s.call(d.tokens.all, 'update_business_name', { name: '  Harbor Bakery & Café  ' });
    expect(r.data).toEqual({ name: 'Harbor Bakery & Café' });
    expect((await company(db(), d.companyId)).name).toBe('Harbor Bakery & Café');
    await s.sg.deps.activity.flush();
    const log = await db().select().from(activity).where(eq(activity.connectionId, d.connections.all));
    expect(log.find((l) => l.tool === 'update_business_name')!.summary).toBe('Updated the business name');
  });

  it('refuses an empty or overlong name, a missing scope and a viewer, leaving the name as it was', async () => {
    const d = await s.seed();
    for (const name of ['', '   ', '\u200b\u200b', 'n'.repeat(101)]) {
      expect((await s.call(d.tokens.all, 'update_business_name', { name })).error?.code).toBe(
        'invalid_input',
      );
    }
    expect((await s.call(d.tokens.default, 'update_business_name', { name: 'New' })).error?.code).toBe(
      'scope_missing',
    );
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    expect((await s.call(viewer, 'update_business_name', { name: 'New' })).error?.code).toBe(
      'role_insufficient',
    );
    const [row] = await db()
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, d.companyId));
    expect(row!.name).toBe('Harbor Bakery');
  });
});
