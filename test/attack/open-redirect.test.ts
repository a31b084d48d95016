// Attack suite, open redirect after sign-in (R-WEB-3): the post-login target is resolved the
// way a browser resolves a Location header (the WHATWG URL parser) and must stay on the base origin.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeNext } from '../../src/web/routes/login.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { webClient } from '../helpers/web.js';

const BASE = 'https://sitegate.example';

/** Where a browser goes for `Location: <value>` on a page of BASE. */
const lands = (location: string) => new URL(location, `${BASE}/login`);

// The WHATWG URL parser's tricky inputs: tabs and newlines are removed anywhere, `\` is `/` in special
// schemes, dot segments collapse, and a leading `//` is another host.
const HOSTILE = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '//evil.example',
  '///evil.example',
  '/.//evil.example',
  '/x/..//evil.example',
  '/%2e%2e//evil.example',
  'https://evil.example/',
  'http:evil.example',
  'javascript:alert(1)',
  '\t//evil.example',
  ' /evil',
  '/\u0000/evil.example',
  '/\u007f/x',
  `/${'a'.repeat(5000)}`,
];

describe('safeNext', () => {
  it('refuses every tricky target: the result always lands on the base origin', () => {
    for (const next of HOSTILE) {
      const out = safeNext(next, BASE);
      expect({ next, origin: lands(out).origin }).toEqual({ next, origin: BASE });
      expect(out).not.toMatch(/[\t\n\r]/);
    }
    expect(safeNext('/\t/evil.example', BASE)).toBe('/');
    expect(safeNext('/x/..//evil.example', BASE)).toBe('/');
  });

  it('keeps ordinary same-site targets, with their query and fragment', () => {
    expect(safeNext('/approvals/plan_1?x=1#top', BASE)).toBe('/approvals/plan_1?x=1#top');
    expect(safeNext('/dashboard/connect?code=ABCD-EFGH', BASE)).toBe('/dashboard/connect?code=ABCD-EFGH');
    expect(safeNext(undefined, BASE)).toBe('/');
  });

  it('property: whatever is sent, a browser following the answer stays on the site', () => {
    const piece = fc.constantFrom(
      '/',
      '\\',
      '\t',
      '\n',
      '.',
      '..',
      '%2f',
      '%5c',
      'evil.example',
      '@',
      ':',
      '?',
      '#',
      ' ',
    );
    const target = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(target, (next) => {
        const out = safeNext(next, BASE);
        return out.startsWith('/') && !out.startsWith('//') && lands(out).origin === BASE;
      }),
      { numRuns: 300 },
    );
  });
});

describe('/login with a hostile next', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: false });
  });
  afterAll(() => s?.close());

  it('signs in and redirects home, never to another host; a newline is no server error', async () => {
    for (const next of ['/\t/evil.example', '/\n/evil.example']) {
      const demo = await s.seed();
      const web = webClient(s.url);
      await web.get(`/login?next=${encodeURIComponent(next)}`);
      const res = await web.post('/login', {
        email: demo.users.owner.email,
        password: demo.users.owner.password,
        next,
      });
      expect(res.status).toBe(303);
      expect(new URL(res.location!, s.url).origin).toBe(new URL(s.url).origin);
      // Already signed in: the GET answers with the same kind of redirect, not a 500.
      const again = await web.get(`/login?next=${encodeURIComponent(next)}`);
      expect(again.status).toBe(303);
      expect(again.location).toBe('/');
    }
  });
});
