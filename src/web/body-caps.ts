// Request-body caps (R-SEC-1): the one module that decides how many bytes any route may be
// sent, checked before the body is read. A declared Content-Length over the cap is refused at once; a
// streamed body (no length) is counted as it arrives and refused the moment it passes the cap, so an
// anonymous 200 MB POST costs at most the cap in memory. The answer is 413 and the connection is
// closed (the rest of the upload is not drained). Small caps for forms and the JSON pairing API; the
// MCP endpoint's cap is an import payload at its own byte cap plus room for the JSON-RPC envelope, so
// `import_site`'s own `payload_too_large` still answers payloads between the two.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_IMAGE_BYTES } from '../domain/library/image-check.js';
import { MAX_MCP_BODY_BYTES } from '../mcp/endpoint.js';

export const BODY_CAPS = {
  /** HTML forms: sign-in, owner pages, the published site's contact and booking forms. */
  form: 64 * 1024,
  /** The JSON APIs without a session (device-code pairing). */
  api: 16 * 1024,
  /** /api/mcp: the largest import payload plus 1 MiB of JSON-RPC envelope. */
  mcp: MAX_MCP_BODY_BYTES,
  /** A published site's /_api/mcp for visitors' assistants: what its forms may send. */
  siteMcp: 64 * 1024,
  /** The owner's image upload into a site's library: one image at its cap plus the form's fields. */
  upload: MAX_IMAGE_BYTES + 64 * 1024,
} as const;

export type CapKind = keyof typeof BODY_CAPS;

/** Which cap a path falls under. Everything not named is a form: the smallest cap that fits it. */
function capKindOf(path: string): CapKind {
  if (path === '/api/mcp') return 'mcp';
  if (path.endsWith('/_api/mcp')) return 'siteMcp';
  if (path.startsWith('/v1/')) return 'api';
  if (/^\/dashboard\/sites\/[^/]+\/library$/.test(path)) return 'upload';
  return 'form';
}

const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en')} KB`;

/** The default 413 answer of each kind: JSON-RPC for MCP, JSON for the API, a small page for forms. */
function defaultReply(kind: CapKind): (c: Context) => Response {
  const max = BODY_CAPS[kind];
  if (kind === 'mcp' || kind === 'siteMcp') {
    return (c) =>
      c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Request body too large.' }, id: null }, 413);
  }
  if (kind === 'api') {
    return (c) =>
      c.json({ error: 'payload_too_large', message: `The request body is over ${kb(max)}.` }, 413);
  }
  return (c) =>
    c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not sent: too long</title></head><body><main><h1>Not sent: too long</h1><p>This form was too large to send (more than ${kb(max)}). Nothing was changed. Please shorten it and try again.</p></main></body></html>`,
      413,
    );
}

/**
 * A cap of one kind before the handler reads the body. `reply` replaces the default 413 answer (the
 * published site's forms show their own page); the connection is closed either way. A declared
 * Content-Length is decided from the header alone and a request with neither length nor chunked
 * encoding has no body (RFC 9112 §6.3); only a streamed body goes through Hono's counting reader.
 * Asking Hono about the body of every request built a web stream per request (docs/performance.md).
 */
export function bodyCap(
  kind: CapKind,
  reply: (c: Context) => Response | Promise<Response> = defaultReply(kind),
): MiddlewareHandler {
  const refuse = async (c: Context) => {
    const res = await reply(c);
    res.headers.set('Connection', 'close');
    return res;
  };
  const streamed = bodyLimit({ maxSize: BODY_CAPS[kind], onError: refuse });
  return async (c, next) => {
    if (c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
    const length = c.req.header('content-length');
    if (length === undefined) return next();
    // A length that is not a number is refused too (Node rejects it first; this holds behind any server).
    return Number(length) <= BODY_CAPS[kind] ? next() : refuse(c);
  };
}

/** The app-wide cap: every request with a body, by the kind of its path (mounted first). */
export function capBodies(): MiddlewareHandler {
  const caps = {
    form: bodyCap('form'),
    api: bodyCap('api'),
    mcp: bodyCap('mcp'),
    siteMcp: bodyCap('siteMcp'),
    upload: bodyCap('upload'),
  };
  return (c, next) => caps[capKindOf(c.req.path)](c, next);
}
