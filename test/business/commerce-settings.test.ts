import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { activity, bookings, companies, documents } from '../../src/db/schema.js';
import { weekOf } from '../../src/domain/commerce/overview.js';
import { normaliseBusinessName } from '../../src/domain/settings/business-name.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { company, setCompany, tokenFor } from './fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

// Services, products and the overview's counts: test/tools/<tool>.test.ts.
describe('get_commerce_overview', () => {
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
