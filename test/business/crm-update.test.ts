// crm_update (R-CRM-1 to R-CRM-3): what it sets, what it refuses, what it logs.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { newId } from '../../src/kernel/ids.js';
import { activity, bookings, contacts, leads } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { tokenFor } from './fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const leadsOf = (site: string) =>
  db().select().from(leads).where(eq(leads.websiteId, site)).orderBy(leads.id);
const bookingsOf = (site: string) =>
  db().select().from(bookings).where(eq(bookings.websiteId, site)).orderBy(bookings.id);

async function activityFor(connectionId: string) {
  await s.sg.deps.activity.flush();
  return db().select().from(activity).where(eq(activity.connectionId, connectionId));
}

describe('crm_update', () => {
  it('updates a lead’s status, handled, note and followUpAt and logs only field names', async () => {
    const d = await s.seed();
    const [lead] = await leadsOf(d.websites.main);
    const r = await s.call(d.tokens.all, 'crm_update', {
      record: 'lead',
      id: lead!.id,
      status: 'contacted',
      handled: true,
      note: 'Call Sam back about the 20 people',
      followUpAt: '2030-01-02T09:00:00Z',
    });
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({
      status: 'contacted',
      handled: true,
      followUpAt: '2030-01-02T09:00:00.000Z',
    });
    const [after] = await db().select().from(leads).where(eq(leads.id, lead!.id));
    expect(after).toMatchObject({
      status: 'contacted',
      handled: true,
      note: 'Call Sam back about the 20 people',
    });
    expect(after!.email).toBe(lead!.email);
    expect(after!.name).toBe(lead!.name);
    const log = await activityFor(d.connections.all);
    const line = log.find((a) => a.tool === 'crm_update')!;
    expect(line.summary).toBe('Updated lead: status, handled, note, followUpAt');
    expect(line.summary).not.toMatch(/Sam|example|Call/);
  });

  it('updates a contact and marks a past booking no_show', async () => {
    const d = await s.seed();
    const [c] = await db().select().from(contacts).where(eq(contacts.websiteId, d.websites.main));
    const r = await s.call(d.tokens.all, 'crm_update', {
      record: 'contact',
      id: c!.id,
      status: 'inactive',
      note: '',
    });
    expect(r.ok).toBe(true);
    const past = (await bookingsOf(d.websites.main)).find((b) => b.startsAt < new Date())!;
    const b = await s.call(d.tokens.all, 'crm_update', { record: 'booking', id: past.id, status: 'no_show' });
    expect(b.ok).toBe(true);
    const [row] = await db().select().from(bookings).where(eq(bookings.id, past.id));
    expect(row!.status).toBe('no_show');
  });

  it('refuses every booking status except no_show with not_settable, and changes nothing', async () => {
    const d = await s.seed();
    const before = await bookingsOf(d.websites.main);
    const past = before.find((x) => x.startsAt < new Date())!;
    const future = before.find((x) => x.startsAt > new Date())!;
    for (const status of ['cancelled', 'completed', 'confirmed', 'restore', 'rescheduled']) {
      const r = await s.call(d.tokens.all, 'crm_update', {
        record: 'booking',
        id: past.id,
        status,
        handled: true,
      });
      expect(r.error?.code).toBe('not_settable');
      expect(r.error?.message).toMatch(/emails the customer/);
    }
    const early = await s.call(d.tokens.all, 'crm_update', {
      record: 'booking',
      id: future.id,
      status: 'no_show',
    });
    expect(early.error?.code).toBe('not_settable');
    const fu = await s.call(d.tokens.all, 'crm_update', { record: 'booking', id: past.id, followUpAt: null });
    expect(fu.error?.code).toBe('not_settable');
    expect(await bookingsOf(d.websites.main)).toEqual(before);
  });

  it('refuses empty updates, unknown statuses and unknown fields such as email, changing nothing', async () => {
    const d = await s.seed();
    const before = await leadsOf(d.websites.main);
    const id = before[0]!.id;
    const cases: Array<Record<string, unknown>> = [
      { record: 'lead', id },
      { record: 'lead', id, status: 'deleted' },
      { record: 'lead', id, email: 'new@evil.example' },
      { record: 'lead', id, delete: true },
      { record: 'lead', id, followUpAt: 'tomorrow' },
      { record: 'invoice', id, status: 'new' },
    ];
    for (const args of cases) {
      expect((await s.call(d.tokens.all, 'crm_update', args)).error?.code).toBe('invalid_input');
    }
    expect(await leadsOf(d.websites.main)).toEqual(before);
  });

  it('answers a record of another site exactly like a missing id, and logs no personal data', async () => {
    const d = await s.seed();
    const [foreign] = await leadsOf(d.websites.otherTenant);
    const before = await leadsOf(d.websites.otherTenant);
    const a = await s.call(d.tokens.all, 'crm_update', { record: 'lead', id: foreign!.id, status: 'won' });
    const b = await s.call(d.tokens.all, 'crm_update', {
      record: 'lead',
      id: 'lead_doesnotexist00',
      status: 'won',
    });
    expect(a.error).toEqual(b.error);
    expect(a.error?.code).toBe('not_found');
    // A lead of the same workspace's other site is not reachable from this site either.
    const [ev] = await db()
      .insert(leads)
      .values({ id: newId('lead'), websiteId: d.websites.events, status: 'new', name: 'Ev', message: 'm' })
      .returning();
    const c = await s.call(d.tokens.all, 'crm_update', { record: 'lead', id: ev!.id, status: 'won' });
    expect(c.error).toEqual(b.error);
    expect(await leadsOf(d.websites.otherTenant)).toEqual(before);
    const [evAfter] = await db()
      .select()
      .from(leads)
      .where(and(eq(leads.id, ev!.id)));
    expect(evAfter!.status).toBe('new');
    const log = await activityFor(d.connections.all);
    for (const l of log.filter((x) => x.tool === 'crm_update')) {
      expect(l.summary).not.toContain(foreign!.id);
      expect(l.summary).not.toMatch(/Other Person|Ev/);
      expect(l.outcome).toBe('denied');
    }
  });

  it('needs crm:write and at least the editor role', async () => {
    const d: Demo = await s.seed();
    const [lead] = await leadsOf(d.websites.main);
    const readOnly = await tokenFor(db(), {
      userId: d.users.owner.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
      scopes: ['site:read', 'crm:read'],
    });
    expect(
      (await s.call(readOnly, 'crm_update', { record: 'lead', id: lead!.id, handled: true })).error?.code,
    ).toBe('scope_missing');
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    expect(
      (await s.call(viewer, 'crm_update', { record: 'lead', id: lead!.id, handled: true })).error?.code,
    ).toBe('role_insufficient');
    expect((await s.call(viewer, 'list_leads', {})).ok).toBe(true);
    const [after] = await db().select().from(leads).where(eq(leads.id, lead!.id));
    expect(after).toEqual(lead);
  });
});
