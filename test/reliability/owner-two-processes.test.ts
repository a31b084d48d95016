// The owner's console and an agent on two `sitegate serve` processes sharing one PostgreSQL database:
// the owner's save by hand on one process is what the agent reads at its next call on the other, and
// the other way round; the owner's form opened before the agent's edit is refused (nothing written)
// instead of overwriting it. PostgreSQL only: two processes share one database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../helpers/web.js';
import { type Child, backend, besides, newDataDir, start, stop } from './harness.js';
import { callTool } from './pg-kit.js';

const url = process.env.DATABASE_URL;
let store: Awaited<ReturnType<typeof backend>>;
let a: Child;
let b: Child;

beforeAll(async () => {
  if (!url) return;
  store = await backend();
  a = await start(newDataDir('owner-a'), store.env);
  b = besides(await start(newDataDir('owner-b'), store.env), a);
}, 240_000);
afterAll(async () => {
  for (const c of [a, b]) if (c) await stop(c);
  await store?.drop();
});

it.runIf(url)(
  "the owner's edit on one process is the agent's next read on the other, and back",
  async () => {
    const websiteId = a.demo.websites.main;
    const token = a.demo.tokens.all;
    const agent = async (name: string, args: Record<string, unknown>) => {
      const r = await callTool(b.base, token, name, { websiteId, ...args });
      expect(r.ok, r.text).toBe(true);
      return r.data;
    };
    const listed = (await agent('list_pages', {})).pages as Array<{
      pageId: string;
      slug: string;
      sections: Array<{ sectionId: string; type: string }>;
    }>;
    const home = listed.find((p) => p.slug === 'home')!;
    const hero = home.sections.find((x) => x.type === 'hero')!;
    const heroOf = async () =>
      (
        (await agent('get_page', { pageId: home.pageId })).sections as Array<{
          sectionId: string;
          content: { heading: string };
          rev: number;
        }>
      ).find((x) => x.sectionId === hero.sectionId)!;
    const form = `/dashboard/sites/${websiteId}/pages/${home.pageId}/sections/${hero.sectionId}`;

    const owner = await signIn(a.base, 'owner@demo.sitegate.test', 'owner-demo-pass');
    const opened = await owner.get(form);
    expect(opened.status).toBe(200);
    const rev = /name="rev" value="(\d+)"/.exec(opened.html)![1]!;
    const saved = await owner.post(form, { rev, intent: 'save', 'c.heading': 'Saved by hand on process A' });
    expect(saved.status).toBe(303);
    expect((await heroOf()).content.heading).toBe('Saved by hand on process A');

    // The agent's edit on B is in the owner's form on A.
    await agent('update_section_text', {
      pageId: home.pageId,
      sectionId: hero.sectionId,
      text: { heading: 'Written by the agent on process B' },
    });
    const reopened = await owner.get(form);
    expect(reopened.html).toContain('value="Written by the agent on process B"');

    // A form opened before another edit: refused on A, the agent's words stay.
    const old = /name="rev" value="(\d+)"/.exec(reopened.html)![1]!;
    await agent('update_section_text', {
      pageId: home.pageId,
      sectionId: hero.sectionId,
      text: { heading: 'The agent again' },
    });
    const before = await heroOf();
    const stale = await owner.post(form, { rev: old, intent: 'save', 'c.heading': 'Old form' });
    expect(stale.status).toBe(409);
    const after = await heroOf();
    expect([after.content.heading, after.rev]).toEqual(['The agent again', before.rev]);

    // The owner publishes on A: B's live page, served from B's own parsed copy of the live site,
    // shows each publish at its next request (the copy is named by the snapshot, read from the row).
    const publish = async () => {
      const review = await owner.get(`/dashboard/sites/${websiteId}/publish`);
      const revision = /name="revision" value="([^"]+)"/.exec(review.html)![1]!;
      const done = await owner.post(`/dashboard/sites/${websiteId}/publish`, { revision });
      expect(done.status).toBe(303);
    };
    const liveOnB = async () => (await fetch(`${b.base}/sites/${websiteId}/`)).text();
    await publish();
    expect(await liveOnB()).toContain('The agent again');
    await agent('update_section_text', {
      pageId: home.pageId,
      sectionId: hero.sectionId,
      text: { heading: 'Second publish' },
    });
    expect(await liveOnB()).toContain('The agent again');
    await publish();
    const second = await liveOnB();
    expect(second).toContain('Second publish');
    expect(second).not.toContain('The agent again');
  },
  120_000,
);
