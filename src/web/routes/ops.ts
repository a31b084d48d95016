// Operations endpoints (R-OPS-4): /readyz and Prometheus /metrics, mounted before
// the domain redirect (a load balancer probes by address), and the middleware that gives every
// request its id, counts it, and asks clients to close their connection while the process drains.
import type { Hono, MiddlewareHandler } from 'hono';
import { safeEqual } from '../../kernel/tokens.js';
import { newRequestId, withRequestId } from '../../ops/request-context.js';
import { setAnswerHeader } from '../answer-headers.js';
import type { AppDeps } from '../deps.js';
import { withDeadline } from '../../db/deadline.js';

export function requestContext(deps: AppDeps): MiddlewareHandler {
  return async (c, next) => {
    const ops = deps.ops;
    const id = newRequestId();
    ops?.metrics.inFlight.inc();
    try {
      // Every request waits on the database within the interactive bound (src/db/deadline.ts);
      // long work started by one takes its own (src/mcp/call/execute.ts).
      await withDeadline(deps.services.config.dbBounds.callTimeoutMs, () => withRequestId(id, next));
    } finally {
      ops?.metrics.inFlight.dec();
      ops?.metrics.httpRequest(c.req.method, c.res.status);
    }
    setAnswerHeader(c, 'X-Request-Id', id);
    // Draining (SIGTERM): the answer is given, then the client opens its next request elsewhere.
    if (ops?.draining()) setAnswerHeader(c, 'Connection', 'close');
  };
}

export function mountOps(app: Hono, deps: AppDeps): void {
  const ops = deps.ops;
  if (!ops) return;
  app.get('/readyz', async (c) => {
    const r = await ops.readiness();
    c.header('Cache-Control', 'no-store');
    return c.json(r, r.ready ? 200 : 503);
  });
  const token = deps.services.config.metricsToken;
  if (!token) return; // deny by default: without METRICS_TOKEN there is no /metrics
  app.get('/metrics', async (c) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (!m || !safeEqual(m[1]!, token)) return c.text('unauthorized', 401);
    const text = await ops.metrics.registry.metrics();
    return c.body(text, 200, {
      'Content-Type': ops.metrics.registry.contentType,
      'Cache-Control': 'no-store',
    });
  });
}
