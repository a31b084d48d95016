// An unknown path of the owner app answers the app's own not-found page (its layout, a way home),
// signed in or not; machine routes answer JSON; a custom domain keeps its published site's 404.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('the owner app not-found page', () => {
  it('is in the app layout with a link home, signed out and signed in', async () => {
    const anon = await fetch(`${s.url}/no/such/page`);
    expect(anon.status).toBe(404);
    expect(anon.headers.get('content-type')).toContain('text/html');
    const html = await anon.text();
    expect(html).toContain('<title>Page not found · Sitegate</title>');
    expect(html).toContain('<header>');
    expect(html).toMatch(/<a href="\/">Go to Sitegate home<\/a>/);
    expect(html).not.toContain('404 Not Found');

    const owner = await signIn(s.url, s.demo.users.owner.email, s.demo.users.owner.password);
    const signed = await owner.get('/settings/nothing-here');
    expect(signed.status).toBe(404);
    // The signed-in header: the owner can go on from here.
    expect(signed.html).toContain('href="/settings/advanced/developers"');
    expect(signed.html).toContain('Go to Sitegate home');
  });

  it('machine routes answer a JSON 404', async () => {
    for (const path of ['/v1/nothing', '/api/nothing']) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('a published site under /sites/ keeps its own 404', async () => {
    const r = await fetch(`${s.url}/sites/${s.demo.websites.main}/no-such-page`);
    expect(r.status).toBe(404);
    expect(await r.text()).not.toContain('Go to Sitegate home');
  });

  it('a host that is not BASE_URL’s keeps the published-site 404', async () => {
    const u = new URL(s.url);
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path: '/no/such/page', headers: { host: 'unknown-site.example' } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('Go to Sitegate home');
  });
});
