// The owner edits leads and contacts on the console's customers page: status, handled, note and
// follow-up date, through crm_update's own function, with an Activity line naming only the changed
// fields; the source of a lead is shown and what a visitor wrote stays text. Refusals (a stale form
// after an assistant's change, a status that does not exist, another tenant's record, an editor, no
// CSRF token) change nothing.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, contacts, leads } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const customersOf = (id: string) => `/dashboard/sites/${id}/customers`;
const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);

async function lead(d: Demo) {
  const id = newId('lead');
  await db().insert(leads).values({
    id,
    websiteId: d.websites.main,
    status: 'new',
    name: 'Robin <b>Bold</b>',
    email: 'robin@example.com',
    message: '<img src=x onerror=alert(1)> Call me',
    source: 'visitor_assistant',
  });
  return id;
}

const rowOf = async (id: string) => (await db().select().from(leads).where(eq(leads.id, id)))[0]!;
const linesOf = (websiteId: string) =>
  db()
    .select()
    .from(activity)
    .where(and(eq(activity.websiteId, websiteId), eq(activity.tool, 'crm_update')));
/** The form's `shown` field: the record's last change as the edit page drew it. */
const shownIn = (html: string) => /name="shown" value="([^"]+)"/.exec(html)![1]!;

describe('editing leads and contacts', () => {
  it('shows the source and the visitor’s text as text; saves status, handled, note and follow-up date', async () => {
    const d = await s.seed();
    const id = await lead(d);
    const web = await as(d.users.owner);
    const list = await web.get(customersOf(d.websites.main));
    expect(list.html).toContain('A visitor&#39;s AI assistant');
    expect(list.html).toContain(`href="${customersOf(d.websites.main)}/lead/${id}"`);
    const edit = await web.get(`${customersOf(d.websites.main)}/lead/${id}`);
    expect(edit.status).toBe(200);
    expect(edit.html).toContain('&lt;img src=x onerror=alert(1)&gt; Call me');
    expect(edit.html).toContain('Robin &lt;b&gt;Bold&lt;/b&gt;');
    expect(edit.html).not.toContain('<img src=x');
    const r = await web.post(`${customersOf(d.websites.main)}/lead/${id}`, {
      shown: shownIn(edit.html),
      status: 'contacted',
      handled: '1',
      note: 'Called back, wants a quote',
      followUp: '2030-01-15',
    });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${customersOf(d.websites.main)}?done=updated`);
    const row = await rowOf(id);
    expect(row.status).toBe('contacted');
    expect(row.handled).toBe(true);
    expect(row.note).toBe('Called back, wants a quote');
    // 09:00 in Amsterdam (winter time, UTC+1).
    expect(row.followUpAt!.toISOString()).toBe('2030-01-15T08:00:00.000Z');
    const lines = await linesOf(d.websites.main);
    expect(lines.map((l) => l.summary)).toEqual([
      'The owner updated a lead: status, handled, note, followUpAt',
    ]);
    expect(lines[0]!.connectionId).toBeNull();
    // The page shows it, and the edit page shows the date as saved.
    expect((await web.get(r.location!)).html).toContain('Saved.');
    expect((await web.get(`${customersOf(d.websites.main)}/lead/${id}`)).html).toContain(
      'name="followUp" value="2030-01-15"',
    );
  });

  it('saves a contact’s follow-up date, which the assistant then reads; an unchanged form writes nothing', async () => {
    const d = await s.seed();
    const [pat] = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.websiteId, d.websites.main), eq(contacts.name, 'Pat Customer')));
    const web = await as(d.users.owner);
    const path = `${customersOf(d.websites.main)}/contact/${pat!.id}`;
    const edit = await web.get(path);
    const form = { shown: shownIn(edit.html), status: 'customer', note: '', followUp: '2031-06-01' };
    expect((await web.post(path, form)).status).toBe(303);
    const listed = await s.call(d.tokens.all, 'list_contacts', {});
    const mine = (listed.data!.contacts as Array<{ id: string; followUpAt: string | null }>).find(
      (c) => c.id === pat!.id,
    );
    expect(mine!.followUpAt).toBe('2031-06-01T07:00:00.000Z');
    // The same form again (from the fresh page): nothing changes, no line.
    const again = await web.get(path);
    const [before] = await db().select().from(contacts).where(eq(contacts.id, pat!.id));
    const same = await web.post(path, { ...form, shown: shownIn(again.html) });
    expect(same.location).toBe(`${customersOf(d.websites.main)}?done=unchanged`);
    const [after] = await db().select().from(contacts).where(eq(contacts.id, pat!.id));
    expect(after).toEqual(before);
    expect(await linesOf(d.websites.main)).toHaveLength(1);
  });
});

describe('refusals change nothing', () => {
  it('a form made stale by an assistant’s change, an unknown status, a bad date, a booking', async () => {
    const d = await s.seed();
    const id = await lead(d);
    const web = await as(d.users.owner);
    const edit = await web.get(`${customersOf(d.websites.main)}/lead/${id}`);
    const shown = shownIn(edit.html);
    // The assistant notes something after the page was drawn.
    expect(
      (await s.call(d.tokens.all, 'crm_update', { record: 'lead', id, note: 'From the assistant' })).ok,
    ).toBe(true);
    const before = await rowOf(id);
    const lines = (await linesOf(d.websites.main)).length;
    const stale = await web.post(`${customersOf(d.websites.main)}/lead/${id}`, {
      shown,
      status: 'won',
      note: 'Mine',
      followUp: '',
    });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('changed after your page was shown');
    const fresh = shownIn((await web.get(`${customersOf(d.websites.main)}/lead/${id}`)).html);
    for (const [form, status] of [
      [{ status: 'millionaire' }, 400],
      [{ status: 'new', followUp: '2030-02-31' }, 400],
      [{ status: 'new', followUp: 'soon' }, 400],
    ] as const) {
      const r = await web.post(`${customersOf(d.websites.main)}/lead/${id}`, {
        shown: fresh,
        note: '',
        ...form,
      });
      expect(r.status, JSON.stringify(form)).toBe(status);
    }
    expect((await web.get(`${customersOf(d.websites.main)}/booking/${id}`)).status).toBe(404);
    expect(await rowOf(id)).toEqual(before);
    expect(await linesOf(d.websites.main)).toHaveLength(lines);
  });

  it('another tenant, an editor, a viewer and a form without CSRF token', async () => {
    const d = await s.seed();
    const id = await lead(d);
    const owner = await as(d.users.owner);
    const shown = shownIn((await owner.get(`${customersOf(d.websites.main)}/lead/${id}`)).html);
    const form = { shown, status: 'spam', note: 'x', followUp: '' };
    const before = await rowOf(id);
    const other = await as(d.users.otherOwner);
    await other.get('/');
    expect((await other.post(`${customersOf(d.websites.main)}/lead/${id}`, form)).status).toBe(404);
    expect((await other.post(`${customersOf(d.websites.otherTenant)}/lead/${id}`, form)).status).toBe(404);
    expect((await other.get(`${customersOf(d.websites.otherTenant)}/lead/${id}`)).status).toBe(404);
    for (const who of [d.users.editor, d.users.viewer]) {
      const web = await as(who);
      expect((await web.get(`${customersOf(d.websites.main)}/lead/${id}`)).status).toBe(403);
      await web.get('/');
      expect((await web.post(`${customersOf(d.websites.main)}/lead/${id}`, form)).status).toBe(403);
    }
    await owner.get(customersOf(d.websites.main));
    expect(
      (await owner.post(`${customersOf(d.websites.main)}/lead/${id}`, form, { csrf: false })).status,
    ).toBe(403);
    expect(await rowOf(id)).toEqual(before);
    expect(await linesOf(d.websites.main)).toHaveLength(0);
  });
});
