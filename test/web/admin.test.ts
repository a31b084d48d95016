// The operator API exists only with SITEGATE_ADMIN_TOKEN, answers only that token, and gives counts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';

const ADMIN = 'operator-secret-0123456789abcdef';
let on: TestServer;
let off: TestServer;
beforeAll(async () => {
  on = await startTestServer({ env: { SITEGATE_ADMIN_TOKEN: ADMIN } });
  off = await startTestServer({ seed: false });
});
afterAll(async () => {
  await on?.close();
  await off?.close();
});

it('is absent without the setting', async () => {
  const r = await fetch(`${off.url}/admin/stats`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(r.status).toBe(404);
});

it('refuses any other token, including a connection token', async () => {
  for (const auth of ['', `Bearer ${ADMIN}x`, `Bearer ${on.demo.tokens.all}`]) {
    const r = await fetch(`${on.url}/admin/stats`, { headers: auth ? { authorization: auth } : {} });
    expect(r.status).toBe(401);
  }
});

it('gives counts without personal data', async () => {
  await on.call(on.demo.tokens.default, 'list_sites');
  await on.sg.deps.activity.flush();
  const r = await fetch(`${on.url}/admin/stats`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(r.status).toBe(200);
  const body = (await r.json()) as Record<string, any>;
  expect(body.websites).toBeGreaterThanOrEqual(3);
  expect(body.callsLast24h.allowed).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(body)).not.toContain('@');
});
