// The console's services page: a service an assistant created (create_service) is a draft, offered to
// no one; the owner publishes it and the live site shows its booking page, visitors' assistants are
// offered it (list_offerings), can ask to book it (request_booking) and find it (search_site); the
// owner unpublishes it and all of that stops. Refusals (a stale page, an already published service,
// another tenant, an editor, no CSRF token) change nothing.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, bookings, services } from '../../src/db/schema.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const listOf = (id: string) => `/dashboard/sites/${id}/services`;
const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);

/** A draft service made by an assistant, with a word no page of the site has. */
async function draftService(d: Demo) {
  const word = `Zephyrloaf${uniqueTag().replace(/[^a-z0-9]/gi, '')}`;
  const made = await s.call(d.tokens.all, 'create_service', {
    name: `${word} masterclass`,
    description: 'Three hours of laminating dough.',
    priceCents: 9000,
    durationMinutes: 180,
  });
  expect(made.ok, JSON.stringify(made.error)).toBe(true);
  return { id: made.data!.serviceId as string, word };
}

/** What a visitor's assistant sees of the live site: the offerings and a search for `word`. */
async function assistantSees(d: Demo, word: string) {
  const c = new Client({ name: 'visitor-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/sites/${d.websites.main}/_api/mcp`)));
  const data = async (name: string, args: Record<string, unknown> = {}) =>
    ((await c.callTool({ name, arguments: args })).structuredContent as { data: Record<string, any> }).data;
  const offerings = (await data('list_offerings')).services as Array<{
    serviceId: string;
    bookable: boolean;
  }>;
  const search = (await data('search_site', { query: word })).results as Array<{ path: string }>;
  await c.close();
  return { offerings, search };
}

const stateOf = async (websiteId: string, serviceId: string) => {
  const [row] = await db()
    .select({ status: services.status })
    .from(services)
    .where(eq(services.id, serviceId));
  const [lines] = await db()
    .select({ n: count() })
    .from(activity)
    .where(and(eq(activity.websiteId, websiteId), like(activity.tool, '%publish_service')));
  return { status: row!.status, lines: lines!.n };
};

describe('services', () => {
  it('publishes an assistant’s draft: live booking page, offerings, booking requests and search; unpublishes it', async () => {
    const d = await s.seed();
    const svc = await draftService(d);
    const web = await as(d.users.owner);
    const page = await web.get(listOf(d.websites.main));
    expect(page.status).toBe(200);
    expect(page.html).toMatch(new RegExp(`data-service="${svc.id}" data-status="draft"`));
    expect(page.html).toContain(`id="publish-${svc.id}"`);
    expect(page.html).toMatch(
      new RegExp(`<a href="${listOf(d.websites.main)}" aria-current="page">Services</a>`),
    );
    const bookPage = `${s.url}/sites/${d.websites.main}/book/${svc.id}`;
    // A draft is offered to no one.
    expect((await fetch(bookPage)).status).toBe(404);
    let seen = await assistantSees(d, svc.word);
    expect(seen.offerings.map((o) => o.serviceId)).not.toContain(svc.id);
    expect(seen.search).toEqual([]);

    const r = await web.post(`${listOf(d.websites.main)}/${svc.id}/publish`, { status: 'draft' });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${listOf(d.websites.main)}?done=published`);
    expect(await stateOf(d.websites.main, svc.id)).toEqual({ status: 'public', lines: 1 });
    const live = await fetch(bookPage);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain(`${svc.word} masterclass`);
    seen = await assistantSees(d, svc.word);
    expect(seen.offerings.find((o) => o.serviceId === svc.id)?.bookable).toBe(true);
    expect(seen.search.map((h) => h.path)).toEqual([`/book/${svc.id}`]);
    // A visitor's assistant can ask to book it.
    const c = new Client({ name: 'visitor-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/sites/${d.websites.main}/_api/mcp`)));
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(
      new Date(Date.now() + 6 * 86_400_000),
    );
    const asked = await c.callTool({
      name: 'request_booking',
      arguments: { serviceId: svc.id, date, time: '10:00', name: 'Ada Visitor', email: 'ada@example.com' },
    });
    await c.close();
    expect(asked.isError, JSON.stringify(asked)).toBeFalsy();
    const requests = await db().select().from(bookings).where(eq(bookings.serviceId, svc.id));
    expect(requests.map((b) => b.status)).toEqual(['requested']);

    await web.get(listOf(d.websites.main));
    const off = await web.post(`${listOf(d.websites.main)}/${svc.id}/unpublish`, { status: 'public' });
    expect(off.status).toBe(303);
    expect(await stateOf(d.websites.main, svc.id)).toEqual({ status: 'draft', lines: 2 });
    expect((await fetch(bookPage)).status).toBe(404);
    seen = await assistantSees(d, svc.word);
    expect(seen.offerings.map((o) => o.serviceId)).not.toContain(svc.id);
    expect(seen.search).toEqual([]);
  });

  it('a stale page, an already published service, another tenant, an editor and no CSRF token change nothing', async () => {
    const d = await s.seed();
    const svc = await draftService(d);
    const owner = await as(d.users.owner);
    await owner.get(listOf(d.websites.main));
    expect(
      (await owner.post(`${listOf(d.websites.main)}/${svc.id}/publish`, { status: 'draft' })).status,
    ).toBe(303);
    const before = await stateOf(d.websites.main, svc.id);
    // The page still showed a draft (a second owner published it first).
    const stale = await owner.post(`${listOf(d.websites.main)}/${svc.id}/publish`, { status: 'draft' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('changed after your page was shown');
    // Publishing what is published.
    expect(
      (await owner.post(`${listOf(d.websites.main)}/${svc.id}/publish`, { status: 'public' })).status,
    ).toBe(409);
    const other = await as(d.users.otherOwner);
    await other.get('/');
    expect(
      (await other.post(`${listOf(d.websites.main)}/${svc.id}/unpublish`, { status: 'public' })).status,
    ).toBe(404);
    expect(
      (await other.post(`${listOf(d.websites.otherTenant)}/${svc.id}/unpublish`, { status: 'public' }))
        .status,
    ).toBe(404);
    const editor = await as(d.users.editor);
    expect((await editor.get(listOf(d.websites.main))).status).toBe(403);
    await editor.get('/');
    expect(
      (await editor.post(`${listOf(d.websites.main)}/${svc.id}/unpublish`, { status: 'public' })).status,
    ).toBe(403);
    await owner.get(listOf(d.websites.main));
    expect(
      (
        await owner.post(
          `${listOf(d.websites.main)}/${svc.id}/unpublish`,
          { status: 'public' },
          { csrf: false },
        )
      ).status,
    ).toBe(403);
    expect(await stateOf(d.websites.main, svc.id)).toEqual(before);
    // No tool makes a service public.
    const client = await s.client(d.tokens.all);
    const { tools } = await client.listTools();
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => /service/.test(n))
        .sort(),
    ).toEqual(['create_service', 'list_services']);
  });
});
