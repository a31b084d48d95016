// Hostile HTTP bodies for the attack suite: a body streamed without a length (chunked), or declared
// with one, sent chunk by chunk until the server answers or the bounded total is reached.
import http from 'node:http';

export type StreamedAnswer = { status: number; body: string; sent: number };

/**
 * POSTs `head`, then up to `total` bytes of `pad`, then `tail`, without Content-Length (chunked) unless
 * `declare` is set. Resolves with the status and how many bytes were written when the answer came.
 */
export function streamBody(
  url: string,
  opts: {
    head: string;
    tail?: string;
    total: number;
    headers?: Record<string, string>;
    declare?: boolean;
    chunk?: number;
  },
): Promise<StreamedAnswer> {
  const chunkSize = opts.chunk ?? 64 * 1024;
  const tail = opts.tail ?? '';
  const u = new URL(url);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.declare) headers['content-length'] = String(opts.head.length + opts.total + tail.length);
  else headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({
      method: 'POST',
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      headers,
    });
    req.on('response', (res) => {
      answered = true;
      const at = sent;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), sent: at }),
      );
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pad = Buffer.alloc(chunkSize, 'x');
    const pump = async () => {
      req.write(opts.head);
      sent += opts.head.length;
      // Bounded: at most total / chunkSize writes, and it stops as soon as the server answered.
      while (!answered && sent < opts.total && !req.destroyed) {
        const ok = req.write(pad);
        sent += pad.length;
        if (!ok) {
          await new Promise<void>((r) => {
            const done = () => {
              req.off('drain', done).off('close', done);
              r();
            };
            req.on('drain', done).on('close', done);
          });
        }
        await new Promise<void>((r) => setImmediate(r));
      }
      if (!answered && !req.destroyed) req.end(tail);
    };
    pump().catch(() => {});
  });
}
