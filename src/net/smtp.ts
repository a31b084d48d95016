// Sending over SMTP, knowing how far each message got (at most once per outbox row,
// docs/reliability.md). A server can accept a message only once it has the message's end (the final
// "." line); if the connection then drops, or its 250 never comes, the message may have been accepted.
// nodemailer's transport reports such a failure just as it reports one before the message was sent, so
// this drives nodemailer's own SMTPConnection and MailComposer and tells the two apart.
// A session sends its messages one after another over one connection (a backlog is not one TLS
// handshake and sign-in per message); after any failure the next message opens a new connection.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

/** A send that failed; `maybeAccepted` when the server had the whole message and refused nothing. */
export class SmtpFailure extends Error {
  constructor(
    readonly code: string,
    readonly maybeAccepted: boolean,
    cause: unknown,
  ) {
    super(`SMTP send failed (${code})`, { cause });
    this.name = 'SmtpFailure';
  }
}

export type SmtpSession = {
  /** Resolves once the server accepted the message (250 after its end); else throws `SmtpFailure`. */
  send(message: Mail.Options): Promise<void>;
  /** Closes the session's connection (call it when its messages are sent). */
  end(): void;
};

export type SmtpSender = {
  /** Messages sent through one session share a connection, one message at a time. */
  session(): SmtpSession;
  /** Drops every open connection (sends under way fail as theirs closes). */
  close(): void;
};

/** Relays commonly end a connection after 100 messages; a session opens the next one itself. */
const MESSAGES_PER_CONNECTION = 100;

/** One open connection and the operation (sign-in or send) that its failure ends, if any. */
type Live = {
  connection: SMTPConnection;
  usable: boolean;
  messages: number;
  fail: ((err: unknown) => void) | null;
};

/**
 * `url` is smtp:// or smtps://, with user:pass and query options (`?socketTimeout=…`) over `defaults`.
 * `messagesPerConnection` is for tests and the benchmark.
 */
export function smtpSender(
  url: string,
  defaults: SMTPConnection.Options,
  messagesPerConnection = MESSAGES_PER_CONNECTION,
): SmtpSender {
  const { auth, ...options } = { ...defaults, ...parseConnectionUrl(url) };
  // user:pass in the URL; given them, the sender always signs in (it never sends unauthenticated).
  const credentials = auth?.user && 'pass' in auth && auth.pass ? { user: auth.user, pass: auth.pass } : null;
  const open = new Set<Live>();

  const drop = (live: Live) => {
    live.usable = false;
    open.delete(live);
    live.connection.close();
  };

  /** Connects and signs in; nothing of a message has left, so a failure here accepted nothing. */
  const connect = () =>
    new Promise<Live>((resolve, reject) => {
      const live: Live = { connection: new SMTPConnection(options), usable: true, messages: 0, fail: null };
      open.add(live);
      live.fail = (err) => {
        live.fail = null;
        drop(live);
        reject(failure(err, false));
      };
      // Each operation's `fail` clears itself, so an error ends at most the operation under way.
      live.connection.on('error', (err) => {
        live.fail?.(err);
        drop(live);
      });
      // A close with no error and no answer: nodemailer's transport waits a second for a late callback.
      live.connection.once('end', () => {
        live.usable = false;
        setTimeout(
          () => live.fail?.(Object.assign(new Error('Unexpected socket close'), { code: 'ECONNECTION' })),
          1_000,
        ).unref();
      });
      const ready = () => {
        live.fail = null;
        resolve(live);
      };
      live.connection.connect(() => {
        if (!credentials) return ready();
        live.connection.login(credentials, (err) => (err ? live.fail?.(err) : ready()));
      });
    });

  const sendOn = (live: Live, message: Mail.Options) =>
    new Promise<void>((resolve, reject) => {
      const mime = new MailComposer(message).compile();
      // True once the connection has read the whole message: from then on the server may have it.
      let handedOver = false;
      const done = (err: unknown) => {
        if (live.fail !== done) return; // already ended (an error, then the send's own callback)
        live.fail = null;
        if (err === undefined) return resolve();
        drop(live);
        reject(failure(err, handedOver));
      };
      live.fail = done;
      live.messages += 1;
      const stream = mime.createReadStream();
      stream.once('end', () => {
        handedOver = true;
      });
      live.connection.send(mime.getEnvelope(), stream, (err) => done(err ?? undefined));
    });

  return {
    session() {
      let live: Live | null = null;
      return {
        async send(message) {
          if (live && (!live.usable || live.messages >= messagesPerConnection)) {
            drop(live);
            live = null;
          }
          const reused = live !== null;
          live ??= await connect();
          try {
            await sendOn(live, message);
          } catch (err) {
            if (!reused || (err instanceof SmtpFailure && err.maybeAccepted)) throw err;
            // A connection that carried earlier messages failed, and this message was not accepted: it
            // may only have gone stale (a relay's idle or per-connection limit). Nothing can be doubled,
            // so the message gets a fresh connection, as the first message of a session does.
            live = await connect();
            await sendOn(live, message);
          }
        },
        end() {
          if (live) drop(live);
          live = null;
        },
      };
    },
    close() {
      for (const live of open) drop(live);
    },
  };
}

function failure(err: unknown, handedOver: boolean): SmtpFailure {
  const e = err as { code?: string; responseCode?: number };
  // A 4xx or 5xx reply refuses; a refusal of the envelope comes before the message is sent.
  const refused = (e.responseCode ?? 0) >= 400 || e.code === 'EENVELOPE';
  return new SmtpFailure(String(e.code ?? 'send_failed'), handedOver && !refused, err);
}
