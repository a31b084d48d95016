// One message over one SMTP connection, knowing how far it got (at most once per outbox row,
// docs/reliability.md). A server can accept a message only once it has the message's end (the final
// "." line); if the connection then drops, or its 250 never comes, the message may have been accepted.
// nodemailer's transport reports such a failure just as it reports one before the message was sent, so
// this drives nodemailer's own SMTPConnection and MailComposer and tells the two apart.
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

export type SmtpSender = {
  /** Resolves once the server accepted the message (250 after its end); else throws `SmtpFailure`. */
  send(message: Mail.Options): Promise<void>;
  /** Drops the connections of sends still under way (they fail as the connection closes). */
  close(): void;
};

/** `url` is smtp:// or smtps://, with user:pass and query options (`?socketTimeout=…`) over `defaults`. */
export function smtpSender(url: string, defaults: SMTPConnection.Options): SmtpSender {
  const { auth, ...options } = { ...defaults, ...parseConnectionUrl(url) };
  // user:pass in the URL; given them, the sender always signs in (it never sends unauthenticated).
  const credentials = auth?.user && 'pass' in auth && auth.pass ? { user: auth.user, pass: auth.pass } : null;
  const open = new Set<SMTPConnection>();

  const send = (message: Mail.Options) =>
    new Promise<void>((resolve, reject) => {
      const mime = new MailComposer(message).compile();
      const connection = new SMTPConnection(options);
      open.add(connection);
      // True once the connection has read the whole message: from then on the server may have it.
      let handedOver = false;
      let settled = false;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        open.delete(connection);
        connection.close();
        if (err === undefined) return resolve();
        const e = err as { code?: string; responseCode?: number };
        // A 4xx or 5xx reply refuses; a refusal of the envelope comes before the message is sent.
        const refused = (e.responseCode ?? 0) >= 400 || e.code === 'EENVELOPE';
        reject(new SmtpFailure(String(e.code ?? 'send_failed'), handedOver && !refused, err));
      };
      connection.on('error', finish); // `finish` acts once; a later error must still have a listener
      // A close with no error and no answer: nodemailer's transport waits a second for a late callback.
      connection.once('end', () =>
        setTimeout(
          () => finish(Object.assign(new Error('Unexpected socket close'), { code: 'ECONNECTION' })),
          1_000,
        ).unref(),
      );
      connection.connect(() => {
        const go = () => {
          const stream = mime.createReadStream();
          stream.once('end', () => {
            handedOver = true;
          });
          connection.send(mime.getEnvelope(), stream, (err) => finish(err ?? undefined));
        };
        if (credentials) connection.login(credentials, (err) => (err ? finish(err) : go()));
        else go();
      });
    });

  return {
    send,
    close() {
      for (const connection of open) connection.close();
      open.clear();
    },
  };
}
