// A real SMTP server (smtp-server) on 127.0.0.1 and a free port, keeping every message it receives.
// `failNext(n)` makes the next n recipients fail with a temporary error, to exercise retries.
import { SMTPServer } from 'smtp-server';
import { freePort } from './server.js';

export type Received = { to: string[]; raw: string };

export async function startSmtp() {
  const port = await freePort();
  const received: Received[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (failures > 0) {
        failures -= 1;
        const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext(n: number) {
      failures = n;
    },
    /** Waits (bounded: at most `tries` × 25 ms) until a message to `to` has arrived. */
    async waitFor(to: string, tries = 400): Promise<Received> {
      for (let i = 0; i < tries; i++) {
        const m = received.find((r) => r.to.includes(to));
        if (m) return m;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no message to ${to} arrived`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
