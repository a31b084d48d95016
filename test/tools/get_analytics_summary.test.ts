// get_analytics_summary: what the published site counted over the last days.
import { expect, it } from 'vitest';
import { analyticsEvents } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

it('matches its contract snapshot', () => kit.expectContract('get_analytics_summary'));

it('counts the window it is asked for', async () => {
  const w = await kit.workspace();
  const view = (path: string, days: number) => ({
    websiteId: w.websites.main,
    kind: 'pageview',
    path,
    occurredAt: daysAgo(days),
  });
  await kit.db
    .insert(analyticsEvents)
    .values([
      view('/', 1),
      view('/', 2),
      view('/about', 3),
      view('/', 20),
      { websiteId: w.websites.main, kind: 'form_submit', path: '/contact', occurredAt: daysAgo(1) },
    ]);
  const month = await kit.call(w.tokens.default, 'get_analytics_summary', { days: 30 });
  expect(month.data).toMatchObject({ days: 30, pageViews: 4, formSubmissions: 1 });
  expect(month.data?.topPages[0]).toMatchObject({ path: { untrusted: true, text: '/' }, views: 3 });
  const week = await kit.call(w.tokens.default, 'get_analytics_summary', { days: 7 });
  expect(week.data).toMatchObject({ days: 7, pageViews: 3 });
});

it('refuses a window past 90 days (invalid_input), writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.default, 'get_analytics_summary', { days: 365 }),
    { tool: 'get_analytics_summary', companyIds: [w.companyId] },
  );
});
