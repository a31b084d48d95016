// Headers added to an answer after the handler made it (request id, framing and caching policy).
// Hono's `c.header()` after `next()` rebuilds the Response around its body stream; on
// @hono/node-server that turns a string answer into a web stream and costs more than the handler
// (docs/performance.md). Setting the header in place keeps the answer as it is.
import type { Context } from 'hono';

export function setAnswerHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    // Immutable headers (a Response.redirect() or a fetched answer): let Hono copy it.
    c.header(name, value);
  }
}
