// Attack suite, malformed input (R-SEC-2): NUL characters, lone surrogates, year-0000 dates,
// absurd nesting and __proto__ keys are `invalid_input` with nothing written, for every tool; and no
// log line carries the values a request sent (a customer's note, SQL parameters).
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { leads, pages, sections, websites } from '../../src/db/schema.js';
import { unstorableInput } from '../../src/domain/storable.js';
import { safeError } from '../../src/ops/log-safety.js';
import { type TestServer, rawCallCode, startTestServer } from '../helpers/server.js';

const logged: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    logged.push(String(chunk));
    done();
  },
});

let s: TestServer;
let d: Demo;
let leadId: string;
beforeAll(async () => {
  s = await startTestServer({ logDestination: sink });
  d = s.demo;
  const [lead] = await db().select({ id: leads.id }).from(leads).where(eq(leads.websiteId, d.websites.main));
  leadId = lead!.id;
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const NOTE = 'Private note: Mrs Example prefers calls after 6pm';

/** Everything the hostile calls below could have touched on the demo's main site. */
async function snapshot() {
  const [lead] = await db().select().from(leads).where(eq(leads.id, leadId));
  const page = await db().select().from(pages).where(eq(pages.websiteId, d.websites.main));
  const hero = await db().select().from(sections).where(eq(sections.id, d.sections.hero));
  const sites = await db()
    .select({ id: websites.id })
    .from(websites)
    .where(eq(websites.companyId, d.companyId));
  return { lead, page, hero, sites: sites.length };
}

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) v = { c: [v] };
  return v;
}

/** A tools/call whose arguments are given as JSON text (too deep for JSON.stringify to write). */
async function callText(tool: string, argsJson: string) {
  const res = await fetch(s.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${d.tokens.all}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${argsJson}}}`,
  });
  const body = (await res.json()) as { result?: { structuredContent?: { error?: { code: string } } } };
  return { status: res.status, code: body.result?.structuredContent?.error?.code };
}

describe('malformed input is invalid_input, nothing written, nothing logged', () => {
  it('NUL, lone surrogates, year 0000, deep nesting and __proto__ across tools', async () => {
    const NUL = 'x\u0000y';
    const cases: Array<[string, Record<string, unknown>]> = [
      ['get_page', { pageId: NUL }],
      ['get_page', { websiteId: NUL, pageId: d.pages.home }],
      [
        'update_section_text',
        { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading: `Hi${NUL}` } },
      ],
      [
        'update_section_text',
        { pageId: d.pages.home, sectionId: d.sections.hero, text: { heading: 'a\uD800b' } },
      ],
      ['update_page_seo', { pageId: d.pages.home, title: 'Title \uDC00' }],
      ['create_page', { title: `New ${NUL}` }],
      ['create_blog_post', { title: 'Post', body: 'text \uD83D end' }],
      ['crm_update', { record: 'lead', id: leadId, note: `${NOTE}\u0000` }],
      ['crm_update', { record: 'lead', id: NUL, note: NOTE }],
      ['crm_update', { record: 'lead', id: leadId, note: NOTE, followUpAt: '0000-01-01T00:00:00Z' }],
      [
        'replace_section_content',
        { pageId: d.pages.home, sectionId: d.sections.hero, content: nested(200), clientRev: 1 },
      ],
      [
        'update_section_text',
        JSON.parse(
          `{"pageId":"${d.pages.home}","sectionId":"${d.sections.hero}","text":{"__proto__":{"heading":"x"}}}`,
        ),
      ],
      ['connect_domain', { hostname: `shop${NUL}.example` }],
      ['list_leads', { status: NUL }],
      ['prepare_send_document', { documentId: NUL }],
    ];
    const before = await snapshot();
    const logStart = logged.length;
    for (const [tool, args] of cases) {
      const r = await rawCallCode(s.mcpUrl, d.tokens.all, tool, args);
      expect({ tool, status: r.status, code: r.code }).toEqual({ tool, status: 200, code: 'invalid_input' });
    }
    // Content nested 10,000 deep (written as text: JSON.stringify itself cannot go that deep).
    const deep = `${'{"c":['.repeat(10_000)}"leaf"${']}'.repeat(10_000)}`;
    expect(await callText('import_site', `{"site":${deep}}`)).toEqual({ status: 200, code: 'invalid_input' });
    expect(await snapshot()).toEqual(before);
    const lines = logged.slice(logStart).join('');
    expect(lines).not.toContain('Mrs Example');
    expect(lines).not.toContain('tool call failed');
  });

  it('a failed query is logged without its parameters or the database detail', async () => {
    let caught: unknown;
    try {
      await db().execute(sql`select ${'secret.customer@example.com'}::int as n`);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    const raw = JSON.stringify({ message: (caught as Error).message, stack: (caught as Error).stack });
    expect(raw).toContain('secret.customer'); // the raw error does carry it: that is the danger
    const safe = JSON.stringify(safeError(caught));
    expect(safe).not.toContain('secret.customer');
    expect(safe).toContain('select $1::int');
  });

  it('property: any input holding a NUL or a lone surrogate anywhere is unstorable', () => {
    const hostile = fc.oneof(
      fc.string().map((s) => `${s}\u0000${s}`),
      fc.string().map((s) => `${s}\uD800`),
      fc.string().map((s) => `\uDFFF${s}`),
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), hostile, fc.nat(), (json, bad, seed) => {
        // Put the hostile string somewhere in a generated JSON document (a leaf or a key).
        const doc = { a: json, b: [json, { [seed % 2 ? 'k' : bad]: seed % 2 ? bad : 1 }] };
        return unstorableInput(doc) !== null;
      }),
      { numRuns: 200 },
    );
  });
});
