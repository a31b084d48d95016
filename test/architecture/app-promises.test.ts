// No promise without a page: every text that sends a person to the app (a tool's description or input
// schema, the server's instructions, a refusal's hint, an email, a page) names a page, and every page
// a text names exists: its route answers the signed-in owner with a page, not a 404. Texts are read
// where agents and people get them: tools/list and the instructions over MCP, and every string and
// JSX text of src/ (hints, mail bodies and pages are written there), comments left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type WebSession, signIn } from '../helpers/web.js';
import { sources } from '../helpers/sources.js';

/** The pages texts name, by the words they use, and where each is (`:site`, `:plan` filled in). */
const PAGES: Record<string, string> = {
  'approval page': '/approvals/:plan',
  'Approvals page': '/approvals',
  'connect page': '/dashboard/connect',
  'Bookings page': '/dashboard/sites/:site/bookings',
  'Services page': '/dashboard/sites/:site/services',
  'Products page': '/dashboard/sites/:site/products',
  'Customers page': '/dashboard/sites/:site/customers',
  'Members page': '/dashboard/sites/:site/members',
  'Analytics page': '/dashboard/sites/:site/analytics',
  'Restore points page': '/dashboard/sites/:site/restore-points',
  'Developers page': '/settings/advanced/developers',
};

/** A page of the app named in a text: "the Bookings page", "the approval page", "the Sitegate connect page". */
const PAGE_NAME = /\bthe (?:Sitegate )?(approval|connect|[A-Z][a-z]+(?: points)?) page\b/g;
/** Words that send a person to the app without naming anything. */
const TO_THE_APP = /\b(?:in|on) the app\b|\bthe app['’]s\b|\bin Sitegate\b/i;
/** Site pages a text may name that are the live site's, not the app's. */
const SITE_PAGES = new Set(['Home', 'Contact', 'About', 'Not']);

/**
 * The words of every string, template and JSX text of a source file; comments are left out (nobody
 * reads them in the product). A small scanner: strings, templates (an expression inside reads "…"),
 * regular expression literals skipped, JSX text between tags.
 */
function textsOf(code: string): string[] {
  const out: string[] = [];
  let i = 0;
  let last = '';
  let jsx = '';
  const flushJsx = () => {
    if (/[A-Za-z]/.test(jsx)) out.push(jsx.replace(/\s+/g, ' '));
    jsx = '';
  };
  while (i < code.length) {
    const c = code[i]!;
    if (c === '/' && code[i + 1] === '/') {
      i = code.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    if (c === '/' && code[i + 1] === '*') {
      i = code.indexOf('*/', i + 2) + 2;
      continue;
    }
    if (c === '/' && /[(,=:[!&|?{};]|^$/.test(last)) {
      // A regular expression literal.
      let j = i + 1;
      let inClass = false;
      while (j < code.length && code[j] !== '\n') {
        if (code[j] === '\\') {
          j += 2;
          continue;
        }
        if (code[j] === '/' && !inClass) break;
        if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
        j++;
      }
      i = j + 1;
      last = '/';
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      let depth = 0;
      while (j < code.length) {
        const d = code[j]!;
        if (depth === 0 && d === c) break;
        if (d === '\\') {
          text += code[j + 1];
          j += 2;
          continue;
        }
        if (c === '`' && d === '$' && code[j + 1] === '{' && depth === 0) {
          depth = 1;
          text += '…';
          j += 2;
          continue;
        }
        if (depth > 0) {
          if (d === '{') depth++;
          else if (d === '}') depth--;
        } else text += d;
        j++;
      }
      out.push(text);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === '>' && /[A-Za-z"'}/)]/.test(last)) {
      // Maybe the end of a JSX tag: collect the text up to the next tag or expression.
      let j = i + 1;
      while (j < code.length && code[j] !== '<' && code[j] !== '{' && !/[;=()]/.test(code[j]!))
        jsx += code[j++];
      if (code[j] === '<') flushJsx();
      jsx = '';
    }
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out;
}

/** What is wrong with one text: a page it names that does not exist, or the app with no page named. */
function problems(text: string): string[] {
  const named = [...text.matchAll(PAGE_NAME)]
    .map((m) => `${m[1]} page`)
    .filter((n) => !SITE_PAGES.has(n.split(' ')[0]!));
  const out = named.filter((n) => !(n in PAGES)).map((n) => `names "${n}", which is no page`);
  if (
    TO_THE_APP.test(text) &&
    named.length === 0 &&
    !/\/(dashboard|approvals|settings)\b|approveUrl/.test(text)
  )
    out.push('sends a person to the app without naming a page');
  return out;
}

let s: TestServer;
let d: Demo;
let owner: WebSession;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
  d = await s.seed();
  owner = await signIn(s.url, d.users.owner.email, d.users.owner.password);
});
afterAll(() => s?.close());

describe('no promise without a page', () => {
  it('every page a text may name answers the signed-in owner', async () => {
    const plan = await s.call(d.tokens.all, 'prepare_publish');
    expect(plan.error).toBeUndefined();
    for (const [name, route] of Object.entries(PAGES)) {
      const url = route.replace(':site', d.websites.main).replace(':plan', plan.data!.planId as string);
      const r = await owner.get(url);
      expect(r.status, `${name} at ${url}`).toBe(200);
      expect(r.html.startsWith('<!doctype html>'), name).toBe(true);
    }
  });

  it('tools/list and the instructions name only pages that exist, and a page wherever they send someone to the app', async () => {
    const client = await s.client(d.tokens.all);
    const { tools } = await client.listTools();
    const texts = [
      ...tools.flatMap((t) => [t.description ?? '', JSON.stringify(t.inputSchema)]),
      client.getInstructions() ?? '',
    ];
    const found = texts.flatMap((t) => problems(t).map((p) => `${p}: ${t.slice(0, 120)}`));
    expect(found).toEqual([]);
  });

  it('every string and text of src/ (hints, mail, pages) does the same', () => {
    const all = sources().flatMap((f) => textsOf(readFileSync(f, 'utf8')));
    // The scan reads the texts it should: the booking-request email's way to the Bookings page.
    expect(all.some((t) => t.includes('confirm or decline it on the Bookings page of this website'))).toBe(
      true,
    );
    const found = sources().flatMap((f) =>
      textsOf(readFileSync(f, 'utf8')).flatMap((t) =>
        problems(t).map((p) => `${path.relative('src', f)}: ${p}: ${t.trim().slice(0, 120)}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('the check is not blind: it finds a page that does not exist and a bare "in the app"', () => {
    expect(problems('The owner can add credits in the app.')).toEqual([
      'sends a person to the app without naming a page',
    ]);
    expect(problems('The owner can give consent on the Settings page.')).toEqual([
      'names "Settings page", which is no page',
    ]);
    expect(problems('Confirm it on the Bookings page in Sitegate.')).toEqual([]);
  });
});
