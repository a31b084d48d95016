// Dynamic client registration (RFC 7591) at the development identity provider is open to anyone, so
// it is bounded: per sender (an IPv6 client by its /64, src/kernel/address-key.ts) through the app's
// rate limits, in total, and in time (registrations no person used within 30 days are purged,
// idp-store.ts). The gate runs before oidc-provider reads the request, so a refusal stores nothing.
import type http from 'node:http';
import type { Db } from '../../db/client.js';
import { addressKey } from '../../kernel/address-key.js';
import type { RateLimits } from '../../limits/rate-limits.js';
import { registeredClients } from './idp-store.js';

export const REGISTRATION_WINDOW = { key: 'idp-register', points: 20, seconds: 3_600 } as const;
export const MAX_CLIENTS = 10_000;

/** The registration route as oidc-provider's router matches it: any case, an optional trailing slash. */
export const isRegistration = (req: http.IncomingMessage, path: string) =>
  req.method === 'POST' && /^\/reg\/?$/i.test(path);

function json(res: http.ServerResponse, status: number, body: Record<string, string>) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Lets a registration through to `next`, or answers the refusal (429 per sender, 503 at the cap). */
export function registrationGate(deps: { db: Db; limits: RateLimits; maxClients: number }) {
  const admit = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sender = addressKey(req.socket.remoteAddress ?? 'unknown');
    const wait = await deps.limits.tryWindow(REGISTRATION_WINDOW, sender);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      json(res, 429, {
        error: 'rate_limited',
        error_description: `Too many client registrations from this network. Retry in ${wait} s.`,
      });
      return false;
    }
    if ((await registeredClients(deps.db)) >= deps.maxClients) {
      json(res, 503, {
        error: 'temporarily_unavailable',
        error_description:
          'No more client registrations are taken now; unused ones are removed after 30 days.',
      });
      return false;
    }
    return true;
  };
  return (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => {
    admit(req, res).then(
      (ok) => {
        if (ok) next();
      },
      () => {
        if (!res.headersSent)
          json(res, 503, { error: 'temporarily_unavailable', error_description: 'Try again.' });
      },
    );
  };
}
