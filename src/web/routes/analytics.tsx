// The console's analytics page: the figures of get_analytics_summary (the same domain function, so the
// page and the tool agree) over the last 30 days, with visits and page views per day drawn on the
// server. Owner only, through the person gate; read only.
import type { Hono } from 'hono';
import { ownerAnalytics } from '../../domain/analytics/summary.js';
import type { AppDeps } from '../deps.js';
import { ANALYTICS_DAYS, AnalyticsPage } from '../pages/analytics.js';
import type { WebEnv } from '../session.js';
import { consoleView } from './owner-action.js';

export function mountAnalytics(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get('/dashboard/sites/:websiteId/analytics', async (c) => {
    const view = await consoleView(c, deps, 'analytics.read', async (ctx) => ({
      summary: await ownerAnalytics({ ...ctx, db: ctx.tx }, ANALYTICS_DAYS),
    }));
    return c.html(<AnalyticsPage {...view} />);
  });
}
