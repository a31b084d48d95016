// The site console lists the draft's pages a hundred at a time: on a site with more, the first hundred
// and a "More pages and posts" link that shows the rest, each page once; a page beyond the first
// hundred can still be deleted from its own confirmation; a list position that is not one is refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pages } from '../../src/db/schema.js';
import { CONSOLE_PAGES } from '../../src/domain/sites/console.js';
import { newId } from '../../src/kernel/ids.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const listed = (html: string) => [...html.matchAll(/data-page="([^"]+)"/g)].map((m) => m[1]!);

it('lists a hundred pages at a time, each once, and deletes one beyond the first hundred', async () => {
  const d = await s.seed();
  const db = s.sg.deps.services.db;
  const extra = Array.from({ length: CONSOLE_PAGES + 3 }, (_, i) => ({
    id: newId('page'),
    websiteId: d.websites.main,
    slug: `extra-${i}`,
    title: `Extra ${i}`,
    position: 1000 + i,
  }));
  await db.insert(pages).values(extra);
  const web = await signIn(s.url, d.users.owner.email, d.users.owner.password);
  const first = await web.get(`/dashboard/sites/${d.websites.main}`);
  expect(first.status).toBe(200);
  const one = listed(first.html);
  expect(one).toHaveLength(CONSOLE_PAGES);
  const more = /<a href="([^"]+)" id="more-pages"/.exec(first.html)![1]!.replace(/&amp;/g, '&');
  const second = await web.get(more.replace(/#.*$/, ''));
  const two = listed(second.html);
  expect(second.html).not.toContain('id="more-pages"');
  expect(second.html).toContain('First pages');
  const all = [...one, ...two];
  expect(new Set(all).size).toBe(all.length);
  for (const p of extra) expect(all).toContain(p.id);

  const late = extra.at(-1)!;
  expect(one).not.toContain(late.id);
  const confirm = await web.get(`/dashboard/sites/${d.websites.main}/pages/${late.id}/delete`);
  expect(confirm.status).toBe(200);
  expect(confirm.html).toContain('Extra 102');

  const bad = await web.get(`/dashboard/sites/${d.websites.main}?after=nonsense`);
  expect(bad.status).toBe(400);
});
