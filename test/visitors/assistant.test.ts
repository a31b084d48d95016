// Visitors' AI assistants on a published site (docs/visitor-agents.md): the SDK v1 and v2 clients read
// the live site at /sites/<id>/_api/mcp and at a verified custom domain's /_api/mcp; a word that is only
// in the draft never appears, nor any customer of the demo; a message and a booking request take the
// forms' path and arrive fenced in list_leads / list_bookings and by SMTP; every refusal writes nothing;
// an unpublished or switched-off site is 404.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { and, count, eq } from 'drizzle-orm';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents, domains, sections } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { signIn } from '../helpers/web.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { visitor, writesOf } from './visitor.js';

let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    seed: false,
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sitegate <mail@sitegate.test>',
      VISITOR_MCP_READS_PER_MINUTE: '40',
      VISITOR_MCP_SENDS_PER_DAY: '2',
    },
  });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await s?.close();
  await smtp?.close();
});
const db = () => s.sg.deps.services.db;

/** The demo's customers: none of them may ever appear in an answer to a visitor's assistant. */
const CUSTOMERS = [
  'Sam Visitor',
  'sam@example.com',
  'Mallory',
  'mallory@example.net',
  'Jo Baker',
  'jo@example.org',
  'Pat Customer',
  'pat@example.com',
  'Lee Late',
  'lee@example.com',
  'Kim Newsletter',
  'kim@example.com',
  'Other Person',
  'INV-2026',
  'Vegetarian please',
];
const DRAFT_MARKER = 'Quokkaflambé';

const agents: Agent[] = [];
/** A fetch from its own loopback address that sends every host name to this server. */
function fetchFrom(address: string): typeof fetch {
  const dispatcher = new Agent({
    localAddress: address,
    connect: {
      lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
        o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)) as never,
    },
  });
  agents.push(dispatcher);
  return ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, {
      ...(init as object),
      dispatcher,
      headers: {
        ...Object.fromEntries(new Headers(init?.headers).entries()),
        'user-agent': 'TestAssistant/1.0',
      },
    })) as unknown as typeof fetch;
}

type Any = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<{
    isError?: boolean;
    content: Array<{ text?: string }>;
    structuredContent?: Record<string, any>;
  }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  readResource(p: { uri: string }): Promise<{ contents: Array<{ text?: string }> }>;
  close(): Promise<void>;
};

async function connect(kind: 'v1' | 'v2-legacy' | 'v2-2026', url: string, address: string): Promise<Any> {
  const f = fetchFrom(address);
  if (kind === 'v1') {
    const c = new ClientV1({ name: 'sdk-v1', version: '1.32.2' });
    await c.connect(new HttpV1(new URL(url), { fetch: f }));
    return c as unknown as Any;
  }
  const mode = kind === 'v2-legacy' ? 'legacy' : { pin: '2026-07-28' };
  const c = new ClientV2({ name: 'sdk-v2', version: '2.4.0' }, { versionNegotiation: { mode } as never });
  await c.connect(new HttpV2(new URL(url), { fetch: f }));
  return c as unknown as Any;
}

async function customDomain(d: Demo): Promise<string> {
  const [dom] = await db()
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.websiteId, d.websites.main), eq(domains.status, 'verified')));
  return dom!.hostname;
}

/** Puts a word into the draft of the main site only (the published snapshot keeps the old text). */
async function draftOnly(d: Demo) {
  await db()
    .update(sections)
    .set({ content: { heading: `Our ${DRAFT_MARKER} bread`, body: `Now with ${DRAFT_MARKER}.` } })
    .where(eq(sections.id, d.sections.intro));
}

const assistantEvents = async (websiteId: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(analyticsEvents)
        .where(and(eq(analyticsEvents.websiteId, websiteId), eq(analyticsEvents.kind, 'assistant')))
    )[0]?.n ?? 0,
  );

const scan = (answers: unknown[]) => {
  const all = JSON.stringify(answers);
  expect(all).not.toContain(DRAFT_MARKER);
  for (const who of CUSTOMERS) expect(all).not.toContain(who);
  return all;
};

describe("visitors' assistants read the live site", () => {
  let d: Demo;
  let host: string;
  beforeAll(async () => {
    d = await s.seed();
    await draftOnly(d);
    host = await customDomain(d);
  });

  const port = () => new URL(s.url).port;
  const cases: Array<[string, 'v1' | 'v2-legacy' | 'v2-2026', 'own' | 'domain', string]> = [
    ['SDK v1 at /sites/<id>', 'v1', 'own', '127.0.51.1'],
    ['SDK v2 legacy at /sites/<id>', 'v2-legacy', 'own', '127.0.51.2'],
    ['SDK v2 2026-07-28 at /sites/<id>', 'v2-2026', 'own', '127.0.51.3'],
    ['SDK v1 on the custom domain', 'v1', 'domain', '127.0.51.4'],
    ['SDK v2 2026-07-28 on the custom domain', 'v2-2026', 'domain', '127.0.51.5'],
  ];
  it.each(cases)('%s: business, pages, offerings, search, resources', async (_l, kind, where, address) => {
    const url =
      where === 'own' ? `${s.url}/sites/${d.websites.main}/_api/mcp` : `http://${host}:${port()}/_api/mcp`;
    const c = await connect(kind, url, address);
    const answers: unknown[] = [];
    /** A call's answer, its structuredContent being the envelope's data (the owner tools' envelope). */
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = await c.callTool({ name, arguments: args });
      answers.push(r);
      const envelope = r.structuredContent as { ok: boolean; data?: Record<string, any> } | undefined;
      expect(envelope?.ok, JSON.stringify(r)).toBe(!r.isError);
      return { ...r, structuredContent: envelope?.data };
    };
    const listed = await c.listTools();
    answers.push(listed);
    const tools = listed.tools.map((t) => t.name).sort();
    expect(tools).toEqual([
      'get_business',
      'list_offerings',
      'read_page',
      'request_booking',
      'search_site',
      'send_message',
    ]);
    const events = await assistantEvents(d.websites.main);

    const business = await call('get_business');
    expect(business.isError).toBeFalsy();
    expect(business.structuredContent).toMatchObject({
      name: 'Harbor Bakery',
      timeZone: 'Europe/Amsterdam',
      takesBookingRequests: true,
    });
    const siteUrl = where === 'own' ? `${s.url}/sites/${d.websites.main}` : `http://${host}`;
    expect(business.structuredContent!.website).toBe(`${siteUrl}/`);
    const pages = business.structuredContent!.pages as Array<{ path: string }>;
    expect(pages.map((p) => p.path)).toContain('/about');

    const home = await call('read_page', { path: '/' });
    expect(home.structuredContent!.markdown).toContain('# ');
    const about = await call('read_page', { path: '/about' });
    expect(about.structuredContent).toMatchObject({ path: '/about' });
    expect((await call('read_page', { path: '/no-such-page' })).isError).toBe(true);

    const offer = await call('list_offerings');
    const all = JSON.stringify(offer.structuredContent);
    expect(all).toContain('Bread workshop');
    expect(all).toContain('EUR 45.00');
    expect(all).toContain('Sourdough loaf');
    expect(all).not.toContain('Wedding cake tasting'); // a draft service
    expect(all).not.toContain('Gift card'); // a draft product

    const found = await call('search_site', { query: 'bread' });
    expect((found.structuredContent!.results as unknown[]).length).toBeGreaterThan(0);
    const draftSearch = await call('search_site', { query: DRAFT_MARKER });
    expect(draftSearch.structuredContent!.results).toEqual([]);

    // An owner tool cannot be named here.
    const owner = await c.callTool({ name: 'list_leads', arguments: {} }).catch((e: Error) => e);
    answers.push(String(owner instanceof Error ? owner.message : JSON.stringify(owner)));
    expect(owner instanceof Error || (owner as { isError?: boolean }).isError).toBeTruthy();

    const resources = await c.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain(`${siteUrl}/about`);
    const read = await c.readResource({ uri: `${siteUrl}/about` });
    answers.push(resources, read);
    expect(read.contents[0]!.text).toContain('# ');

    scan(answers);
    // Each tool call is counted as an assistant's call, not as a page view.
    expect(await assistantEvents(d.websites.main)).toBeGreaterThan(events);
    await c.close();
  });

  it('published pages link to the endpoint from their <head>; the link follows the switch', async () => {
    const v = visitor({ address: '127.0.51.20' });
    const page = await v.get(`${s.url}/sites/${d.websites.main}/about`);
    expect(page.html).toContain(`<link rel="mcp" href="/sites/${d.websites.main}/_api/mcp">`);
    await v.close();
    const onDomain = await fetchFrom('127.0.51.21')(`http://${host}:${port()}/about`);
    expect(await onDomain.text()).toContain('<link rel="mcp" href="/_api/mcp">');
  });
});

describe('messages and booking requests from an assistant', () => {
  it('arrive as a `new` lead and a `requested` booking, fenced, from the assistant, and by email', async () => {
    const d = await s.seed();
    const c = await connect('v2-2026', `${s.url}/sites/${d.websites.main}/_api/mcp`, '127.0.52.1');
    const before = await s.call(d.tokens.all, 'get_analytics_summary', { days: 1 });
    const offer = await c.callTool({ name: 'list_offerings', arguments: {} });
    const workshop = (
      offer.structuredContent!.data.services as Array<{ serviceId: string; name: string }>
    ).find((x) => x.name === 'Bread workshop')!.serviceId;
    const sent = await c.callTool({
      name: 'send_message',
      arguments: {
        name: 'Ada Assistant-User',
        email: 'ada@example.com',
        message: 'Do you bake\u200b rye on Sundays?',
      },
    });
    expect(sent.isError).toBeFalsy();
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(
      new Date(Date.now() + 5 * 86_400_000),
    );
    const booked = await c.callTool({
      name: 'request_booking',
      arguments: {
        serviceId: workshop,
        date,
        time: '11:00',
        name: 'Ada Assistant-User',
        email: 'ada@example.com',
      },
    });
    expect(booked.isError).toBeFalsy();
    scan([sent, booked]);

    const leads = await s.call(d.tokens.all, 'list_leads', { status: 'new' });
    const lead = (leads.data!.leads as Array<Record<string, any>>).find(
      (l) => l.email?.text === 'ada@example.com',
    );
    expect(lead).toMatchObject({
      status: 'new',
      source: { untrusted: true, text: 'visitor_assistant' },
      name: { untrusted: true, text: 'Ada Assistant-User' },
      message: { untrusted: true, text: 'Do you bake rye on Sundays?' },
    });
    const list = await s.call(d.tokens.all, 'list_bookings', { status: 'requested' });
    const booking = (list.data!.bookings as Array<Record<string, any>>).find(
      (b) => b.customerEmail?.text === 'ada@example.com',
    );
    expect(booking).toMatchObject({
      status: 'requested',
      serviceId: workshop,
      source: { untrusted: true, text: 'visitor_assistant' },
      customerName: { untrusted: true, text: 'Ada Assistant-User' },
    });
    // Counted as the assistant's calls and as a form submission and a booking, never as page views.
    const after = await s.call(d.tokens.all, 'get_analytics_summary', { days: 1 });
    expect(after.data).toMatchObject({
      pageViews: before.data!.pageViews,
      formSubmissions: before.data!.formSubmissions + 1,
      bookings: before.data!.bookings + 1,
      assistantCalls: before.data!.assistantCalls + 3,
    });
    // The owner is emailed as for the forms.
    const received = await smtp.waitFor(d.users.owner.email);
    const body = received.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('AI assistant');
    expect(body).toContain('ada@example.com');
    await c.close();
  });

  it('refuses what the forms refuse, and past the daily cap, writing nothing', async () => {
    const d = await s.seed();
    const c = await connect('v1', `${s.url}/sites/${d.websites.main}/_api/mcp`, '127.0.52.2');
    const before = await writesOf(db(), d.websites.main);
    const bad = await c.callTool({
      name: 'send_message',
      arguments: { name: 'Bo', email: 'not-an-email', message: 'Hello' },
    });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('email');
    const control = await c.callTool({
      name: 'send_message',
      arguments: { name: 'Bo\u0007', email: 'bo@example.com', message: 'Hello' },
    });
    expect(control.isError).toBe(true);
    const noService = await c.callTool({
      name: 'request_booking',
      arguments: {
        serviceId: 'svc_nope',
        date: '2030-01-01',
        time: '10:00',
        name: 'Bo',
        email: 'bo@example.com',
      },
    });
    expect(noService.isError).toBe(true);
    expect(await writesOf(db(), d.websites.main)).toEqual(before);
    scan([bad, control, noService]);

    // The daily cap per address (2 here): the third is refused and writes nothing.
    const msg = { name: 'Bo', email: 'bo@example.com', message: 'Hello there' };
    expect((await c.callTool({ name: 'send_message', arguments: msg })).isError).toBeFalsy();
    expect((await c.callTool({ name: 'send_message', arguments: msg })).isError).toBeFalsy();
    const after = await writesOf(db(), d.websites.main);
    const capped = await c.callTool({ name: 'send_message', arguments: msg });
    expect(capped.isError).toBe(true);
    expect(capped.content[0]!.text).toContain('Try again in');
    expect(await writesOf(db(), d.websites.main)).toEqual(after);
    await c.close();
  });
});

describe('the edge', () => {
  const post = (url: string, address: string, headers: Record<string, string> = {}, body?: string) =>
    fetchFrom(address)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: body ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('an unpublished, unknown or switched-off site is 404; switched on again it answers', async () => {
    const d = await s.seed();
    const url = (id: string) => `${s.url}/sites/${id}/_api/mcp`;
    expect((await post(url(d.websites.events), '127.0.53.1')).status).toBe(404);
    expect((await post(url('site_doesnotexist'), '127.0.53.1')).status).toBe(404);
    expect((await post(url(d.websites.main), '127.0.53.1')).status).toBe(200);
    // The owner's switch in the console (a signed-in POST through the person gate).
    const owner = await signIn(s.url, d.users.owner.email, d.users.owner.password);
    await owner.get('/');
    const consoleUrl = `/dashboard/sites/${d.websites.main}`;
    expect((await owner.post(`${consoleUrl}/visitor-agents`, { on: '0' })).status).toBe(303);
    expect((await owner.get(consoleUrl)).html).toContain('Switch on');
    expect((await post(url(d.websites.main), '127.0.53.1')).status).toBe(404);
    const host = await customDomain(d);
    const onDomain = `http://${host}:${new URL(s.url).port}/_api/mcp`;
    expect((await post(onDomain, '127.0.53.1')).status).toBe(404);
    const v = visitor({ address: '127.0.53.1' });
    expect((await v.get(`${s.url}/sites/${d.websites.main}/about`)).html).not.toContain('rel="mcp"');
    await v.close();
    expect((await owner.post(`${consoleUrl}/visitor-agents`, { on: '1' })).status).toBe(303);
    expect((await post(url(d.websites.main), '127.0.53.1')).status).toBe(200);
    expect((await post(onDomain, '127.0.53.1')).status).toBe(200);
  });

  it('refuses a foreign Host or Origin, and a body over the cap, writing nothing', async () => {
    const d = await s.seed();
    const url = `${s.url}/sites/${d.websites.main}/_api/mcp`;
    const before = await writesOf(db(), d.websites.main);
    const events = await assistantEvents(d.websites.main);
    expect((await post(url, '127.0.54.1', { origin: 'https://evil.example.com' })).status).toBe(403);
    const send = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'send_message',
        arguments: { name: 'A', email: 'a@example.com', message: 'x'.repeat(70_000) },
      },
    });
    const tooLarge = await post(url, '127.0.54.1', {}, send);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { code: -32000 } });
    expect(await writesOf(db(), d.websites.main)).toEqual(before);
    expect(await assistantEvents(d.websites.main)).toBe(events);
  });

  it('limits requests per address and answers 429 past it, writing nothing', async () => {
    const d = await s.seed();
    const url = `${s.url}/sites/${d.websites.main}/_api/mcp`;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_business', arguments: {} },
    });
    let refused: Response | null = null;
    for (let i = 0; i < 60 && !refused; i++) {
      const r = await post(url, '127.0.55.1', { 'mcp-protocol-version': '2025-11-25' }, call);
      if (r.status === 429) refused = r;
      else expect(r.status).toBe(200);
    }
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    const events = await assistantEvents(d.websites.main);
    expect((await post(url, '127.0.55.1', {}, call)).status).toBe(429);
    expect(await assistantEvents(d.websites.main)).toBe(events);
    // Another address is not affected.
    expect((await post(url, '127.0.55.2', {}, call)).status).toBe(200);
  });
});
