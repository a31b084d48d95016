// The Customers page shows each list a page at a time, newest first: with more leads than a page holds,
// the first page has the newest and an "Older leads" link, the link shows the rest with nothing repeated
// or skipped, and a "Newest leads" way back; each list pages on its own; a cursor that is not one is
// refused, not guessed at.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leads } from '../../src/db/schema.js';
import { SHOWN } from '../../src/domain/crm/customers.js';
import { newId } from '../../src/kernel/ids.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const idsIn = (html: string, table: string) => {
  const part = html.slice(html.indexOf(`id="${table}"`));
  const end = part.indexOf('</table>');
  return [...part.slice(0, end).matchAll(/data-record="([^"]+)"/g)].map((m) => m[1]!);
};
const fromHtml = (href: string) => href.replace(/&amp;/g, '&');

it('pages the leads newest first, each page once, and back to the newest', async () => {
  const d = await s.seed();
  const db = s.sg.deps.services.db;
  const base = Date.now() - 1_000_000;
  const made = Array.from({ length: SHOWN + 7 }, (_, i) => ({
    id: newId('lead'),
    websiteId: d.websites.main,
    status: 'new',
    name: `Visitor ${i}`,
    email: `visitor${i}@example.com`,
    // Two at the same millisecond: the id orders them, and the cursor must not drop either.
    createdAt: new Date(base + Math.floor(i / 2) * 1000),
  }));
  await db.insert(leads).values(made);
  const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
  const first = await web.get(`/dashboard/sites/${d.websites.main}/customers`);
  expect(first.status).toBe(200);
  const page1 = idsIn(first.html, 'leads');
  expect(page1).toHaveLength(SHOWN);
  const href = fromHtml(/<a href="([^"]+)" id="older-leads"/.exec(first.html)![1]!);
  expect(href).toMatch(/\?lead=/);
  const second = await web.get(href.replace(/#.*$/, ''));
  const page2 = idsIn(second.html, 'leads');
  // Every lead of the site exactly once across the two pages, newest first.
  const all = [...page1, ...page2];
  expect(new Set(all).size).toBe(all.length);
  const seeded = new Set((await db.select({ id: leads.id }).from(leads)).map((r) => r.id));
  expect(all.filter((id) => seeded.has(id)).length).toBe(all.length);
  for (const lead of made) expect(all).toContain(lead.id);
  expect(all.indexOf(made.at(-1)!.id)).toBeLessThan(all.indexOf(made[0]!.id));
  expect(second.html).not.toContain('id="older-leads"');
  expect(second.html).toContain('Newest leads');
  // The other lists stay on their first page.
  expect(idsIn(second.html, 'contacts')).toEqual(idsIn(first.html, 'contacts'));

  const bad = await web.get(`/dashboard/sites/${d.websites.main}/customers?lead=not-a-cursor`);
  expect(bad.status).toBe(400);
  expect(bad.html).toContain('That cursor is not valid.');
});
