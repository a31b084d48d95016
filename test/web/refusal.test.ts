// The web adapter translates a Refusal in one place (src/web/refusal.tsx): the status follows the
// refusal's code on every page, a route chooses only how its answer looks, and anything that is not a
// Refusal stays a failure. In-process on a bare Hono app: no server, no database.
import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { Refusal, notFound } from '../../src/kernel/errors.js';
import { answerRefusal, answerRefusalsWith, refusalJson, refusalPage } from '../../src/web/refusal.js';
import type { WebEnv } from '../../src/web/session.js';

function app() {
  const web = new Hono<WebEnv>();
  web.use('*', async (c, next) => {
    c.set('user', null);
    c.set('csrf', 'x');
    await next();
  });
  web.get('/plain/:code', (c) => {
    throw new Refusal(c.req.param('code') as 'conflict', `refused: ${c.req.param('code')}`, 'a hint');
  });
  web.get(
    '/form',
    answerRefusalsWith((c, err, status) =>
      c.html(`<input value="${c.req.query('q')}">${err.message}`, status),
    ),
    () => {
      throw notFound('website');
    },
  );
  web.get('/api', answerRefusalsWith(refusalJson), () => {
    throw new Refusal('rate_limited', 'slow down');
  });
  web.get('/boom', () => {
    throw new Error('boom');
  });
  web.onError((err, c) => {
    if (err instanceof Refusal) return answerRefusal(c, err, refusalPage());
    return c.text('failure', 500);
  });
  return web;
}

it('answers a page without its own answer with "Not possible", its message and hint, status by code', async () => {
  const expected: Record<string, number> = {
    invalid_input: 400,
    owner_only: 403,
    role_insufficient: 403,
    area_disabled: 403,
    not_found: 404,
    plan_expired: 410,
    rate_limited: 429,
    conflict: 409,
    plan_used: 409,
  };
  for (const [code, status] of Object.entries(expected)) {
    const res = await app().request(`/plain/${code}`);
    expect([code, res.status]).toEqual([code, status]);
    const html = await res.text();
    expect(html).toContain(`data-code="${code}"`);
    expect(html).toContain(`refused: ${code}`);
    expect(html).toContain('a hint');
    expect(html).toContain('Nothing was changed.');
  }
});

it("answers with the route's own page when it chose one: the form again, keeping what was typed", async () => {
  const res = await app().request('/form?q=kept');
  expect(res.status).toBe(404);
  const html = await res.text();
  expect(html).toContain('<input value="kept">');
  expect(html).toContain('No website with that id');
  expect(html).not.toContain('Not possible');
});

it('answers a JSON route with its code and message', async () => {
  const res = await app().request('/api');
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ error: 'rate_limited', message: 'slow down' });
});

it('leaves anything that is not a Refusal to the failure handler', async () => {
  const res = await app().request('/boom');
  expect(res.status).toBe(500);
  expect(await res.text()).toBe('failure');
});
