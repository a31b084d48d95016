// Operator API under /admin, enabled only when SITEGATE_ADMIN_TOKEN is set (R-WEB-7):
// `Authorization: Bearer <SITEGATE_ADMIN_TOKEN>`, compared in constant time. Counts only.
import type { Hono } from 'hono';
import { safeEqual } from '../../kernel/tokens.js';
import { operatorStats } from '../../domain/admin/stats.js';
import { roundTrips } from '../../kernel/round-trips.js';
import type { AppDeps } from '../deps.js';

export function mountAdmin(app: Hono, deps: AppDeps): void {
  const token = deps.services.config.adminToken;
  if (!token) return; // deny by default: without the setting the routes do not exist
  app.use('/admin/*', async (c, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (!m || !safeEqual(m[1]!, token)) return c.json({ error: 'unauthorized' }, 401);
    await next();
  });
  app.get('/admin/stats', async (c) => {
    // The benchmark reads its counters without the statements the full answer costs.
    if (c.req.query('only') === 'roundTrips' && roundTrips.enabled) {
      return c.json({ roundTrips: { db: roundTrips.db, redis: roundTrips.redis } });
    }
    const m = process.memoryUsage();
    const mb = (n: number) => Math.round(n / 1_048_576);
    return c.json({
      database: deps.services.config.databaseUrl ? 'postgres' : 'pglite',
      memoryMb: {
        rss: mb(m.rss),
        heapUsed: mb(m.heapUsed),
        external: mb(m.external),
        arrayBuffers: mb(m.arrayBuffers),
      },
      ...(roundTrips.enabled ? { roundTrips: { db: roundTrips.db, redis: roundTrips.redis } } : {}),
      ...(await operatorStats(deps.services.db, deps.services.clock())),
    });
  });
}
