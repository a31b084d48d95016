// The device-code pairing API (R-PAIR-1, R-PAIR-2): JSON, no session, outside the form CSRF
// guard. Start and poll are rate-limited per sender (src/kernel/address-key.ts: an IPv6 client by its
// /64); the statuses are the contract's.
import type { Context, Hono } from 'hono';
import { revokeOwnConnection } from '../../auth/connections.js';
import { pollPairing, startPairing } from '../../auth/pairing.js';
import { looksLikeApiToken } from '../../kernel/tokens.js';
import type { AppDeps } from '../deps.js';
import { clientAddress } from '../client-address.js';
import { addressKey } from '../../kernel/address-key.js';
import { answerRefusalsWith } from '../refusal.js';

const START_BUCKET = { key: 'pair-start', perMinute: 30 };
const POLL_BUCKET = { key: 'pair-poll', perMinute: 120 };

async function jsonBody(c: Context): Promise<Record<string, unknown> | null> {
  try {
    const body = await c.req.json();
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function mountPairing(app: Hono, deps: AppDeps): void {
  const { db, clock, config } = deps.services;
  app.post('/v1/cli/pair/start', async (c) => {
    const body = await jsonBody(c);
    if (!body) return c.json({ error: 'invalid_request', message: 'Send a JSON body.' }, 400);
    // A refusal (rate limit, invalid scopes) is answered by the app as `{ error, message }`.
    await deps.limits.consumeKey(START_BUCKET, addressKey(clientAddress(c)));
    const started = await startPairing(
      db,
      { scopes: body.scopes, clientName: body.clientName },
      { now: clock(), baseUrl: config.baseUrl, intervalSeconds: config.pairIntervalSeconds },
    );
    return c.json(started, 201);
  });
  // Polling too fast is the device flow's own `slow_down` (RFC 8628 §3.5).
  const slowDown = answerRefusalsWith((c, e) => c.json({ error: 'slow_down', message: e.message }, 429));
  app.post('/v1/cli/pair/poll', slowDown, async (c) => {
    const body = await jsonBody(c);
    await deps.limits.consumeKey(POLL_BUCKET, addressKey(clientAddress(c)));
    const r = await pollPairing(db, body?.deviceCode, clock());
    return c.json(r.body, r.status);
  });
  // `sitegate logout --revoke`: a token ends its own connection and no other (Bearer, RFC 6750 §2.1).
  // An unknown or already revoked token gets the same 401 as at /api/mcp, and nothing is written.
  app.post('/v1/cli/revoke', async (c) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    const token = m?.[1];
    if (token && looksLikeApiToken(token) && (await revokeOwnConnection(db, token, clock()))) {
      return c.body(null, 204);
    }
    c.header('WWW-Authenticate', token ? 'Bearer error="invalid_token"' : 'Bearer');
    const message = token
      ? 'This token is not valid: it may have been revoked or replaced.'
      : 'Send Authorization: Bearer <token>.';
    return c.json({ error: token ? 'invalid_token' : 'invalid_request', message }, 401);
  });
}
