// A real SMTP server (smtp-server) on 127.0.0.1 and a free port, keeping every message it receives.
// `failNext(n)` makes the next n recipients fail with a temporary error, to exercise retries; `login`
// makes it require that user and password; `tls` speaks TLS from the start ('implicit', smtps://) or
// offers STARTTLS, with smtp-server's own self-signed test certificate.
import { type Socket, createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { freePort } from './server.js';

export type Received = { to: string[]; raw: string; secure: boolean };

export async function startSmtp(
  opts: { login?: { user: string; pass: string }; tls?: 'implicit' | 'starttls' } = {},
) {
  const port = await freePort();
  const received: Received[] = [];
  const stats = { connections: 0 };
  let failures = 0;
  const { login, tls } = opts;
  const server = new SMTPServer({
    secure: tls === 'implicit',
    // With `login`, a sender must sign in (over plain TCP too).
    authOptional: !login,
    allowInsecureAuth: true,
    disabledCommands: [...(tls === 'starttls' ? [] : ['STARTTLS']), ...(login ? [] : ['AUTH'])],
    onAuth(auth, _session, cb) {
      if (login && auth.username === login.user && auth.password === login.pass)
        return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    logger: false,
    onConnect(_session, cb) {
      stats.connections += 1;
      cb();
    },
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
          secure: session.secure,
        });
        cb();
      });
    },
  });
  // A client that drops the connection (one that refuses the test certificate, say) is an error of that
  // connection, reported here; the tests read what the sender recorded.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `${tls === 'implicit' ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    received,
    /** How many connections it has accepted. */
    stats,
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

/**
 * An SMTP server written out by hand, for what a well-behaved one never does: it answers every command
 * like a relay, and at `at` ('rcpt': the recipient; 'dot': the message's final "." line) it does `then`:
 * 'drop' the connection, stay 'silent', 'refuse' with 451, or 'accept' with 250. With `afterMessages`,
 * the first that many messages (counted across connections) are accepted as a relay would.
 */
export async function startScriptedSmtp(
  at: 'rcpt' | 'dot',
  then: 'drop' | 'silent' | 'refuse' | 'accept',
  afterMessages = 0,
) {
  const port = await freePort();
  const stats = { connections: 0, messages: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    stats.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    const act = (ok: string) => {
      if (then === 'drop') socket.destroy();
      else if (then === 'refuse') socket.write('451 4.3.0 Try again later\r\n');
      else if (then === 'accept') socket.write(`${ok}\r\n`);
    };
    let buffered = '';
    let inData = false;
    socket.write('220 scripted.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffered = buffered.slice(end + 5);
          inData = false;
          stats.messages += 1;
          if (at === 'dot' && stats.messages > afterMessages) act('250 2.0.0 Ok: queued');
          else socket.write('250 2.0.0 Ok: queued\r\n');
          continue;
        }
        const eol = buffered.indexOf('\r\n');
        if (eol < 0) return;
        const verb = buffered.slice(0, eol).split(' ')[0]!.toUpperCase();
        buffered = buffered.slice(eol + 2);
        if (verb === 'RCPT' && at === 'rcpt' && stats.messages >= afterMessages) act('250 2.1.5 Ok');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else socket.write('250 scripted.test\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    stats,
    /** Drops every open connection, as a relay does when a connection has been idle too long. */
    dropAll() {
      for (const s of sockets) s.destroy();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One header of a received message as a person reads it: unfolded, RFC 2047 encoded words decoded
 * (what a mail client shows), or null when the message has no such header.
 */
export function headerOf(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return null;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}
