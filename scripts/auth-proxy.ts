// A tiny HTTP proxy for clients that cannot send a bearer token (the MCP conformance suite):
// forwards every request to TARGET adding `Authorization: Bearer TOKEN`. A Host or Origin that is
// not the proxy's own is passed through untouched, so the server's DNS-rebinding guard still sees it.
// Usage: tsx scripts/auth-proxy.ts <listenPort> <targetBaseUrl> <token>
import { createServer, request } from 'node:http';

const [portArg, target, token] = process.argv.slice(2);
if (!portArg || !target || !token) {
  console.error('usage: auth-proxy <listenPort> <targetBaseUrl> <token>');
  process.exit(2);
}
const t = new URL(target);
const own = new Set([`127.0.0.1:${portArg}`, `localhost:${portArg}`]);

createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  if (!req.headers.host || own.has(req.headers.host)) headers.host = t.host;
  const origin = req.headers.origin;
  if (origin && own.has(origin.replace(/^https?:\/\//, ''))) headers.origin = `${t.protocol}//${t.host}`;
  const up = request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(up);
})
  .on('error', (err) => {
    console.error(`auth proxy failed: ${err.message}`);
    process.exit(1);
  })
  .listen(Number(portArg), '127.0.0.1', () => console.log(`auth proxy on 127.0.0.1:${portArg} -> ${target}`));
