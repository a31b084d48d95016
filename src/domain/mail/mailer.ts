// Delivery of the mail outbox over SMTP to SMTP_URL (src/net/smtp.ts), with retries (R-REL-2).
// Guarantee (R-REL-2, docs/reliability.md): at most once per outbox row, and a stable
// Message-ID (<row id@host of MAIL_FROM>) on every attempt.
//  - A row is claimed before sending: one conditional UPDATE moves it from `queued` to `sending` with a
//    lease (next_attempt_at), so two processes never send one row.
//  - The SMTP server accepted (250): `sent`. It refused, or the attempt failed before the server had the
//    whole message: back to `queued` with a backoff (nothing was accepted, a retry cannot double it),
//    `failed` after MAX_ATTEMPTS. The connection dropped or went silent after the server had the whole
//    message: it may have accepted it, so `uncertain` at once, never resent.
//  - The process died while a row was `sending`: the server may or may not have accepted it, so the row
//    is never resent blindly. When its lease has run out it becomes `uncertain`, and the owner sees it.
// Without SMTP_URL the message stays in the outbox and the log notes it — by id and kind only, never
// the address or the body (no personal data in logs).
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { faultPoint } from '../../kernel/fault.js';
import { SmtpFailure, type SmtpSession, smtpSender } from '../../net/smtp.js';

const MAX_ATTEMPTS = 8;
/** How long a claimed row may stay `sending` (SMTP_TIMEOUTS end an attempt well before). */
export const SEND_LEASE_MS = 5 * 60_000;
/**
 * Each well inside the lease. nodemailer's own defaults wait 2 minutes to connect and 10 on a silent
 * socket, so an attempt against a server that stalls could outlive its lease and turn `uncertain`
 * (never retried) though nothing was accepted. Query parameters of SMTP_URL
 * (`?socketTimeout=…`, in ms) override them.
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
  dnsTimeout: 30_000,
} as const;
const BATCH = 20;
/** The most rows one retry sweep sends or reschedules; the next sweep (30 s later) goes on. */
const SWEEP_MAX = 1_000;

export type Mailer = {
  /** True when SMTP_URL is set; otherwise mail is only kept in the outbox. */
  readonly enabled: boolean;
  /** Sends these just-committed rows now (called after commit). Never throws. */
  deliverNow(ids: readonly string[]): Promise<void>;
  /** Sends every queued row that is due (the retry job). Returns how many were sent. */
  deliverDue(): Promise<number>;
  close(): void;
};

export type MailerOptions = {
  db: Db;
  log: Logger;
  clock: () => Date;
  smtpUrl?: string;
  from: string;
};

/** Retry delay after `attempts` failures: 1, 2, 4 … minutes, capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export function createMailer(opts: MailerOptions): Mailer {
  const { db, log, clock } = opts;
  const transport = opts.smtpUrl ? smtpSender(opts.smtpUrl, SMTP_TIMEOUTS) : null;

  const domain = /@([^>\s]+)>?\s*$/.exec(opts.from)?.[1] ?? 'sitegate.local';
  /** The same on every attempt of one row, so a receiver can recognise a repeat. */
  const messageId = (id: string) => `<${id}@${domain}>`;

  /** Claims one due row (`sending`, attempts+1, a lease) so no other process sends it meanwhile. */
  const claim = async (id: string) => {
    const now = clock();
    const [row] = await db
      .update(mailOutbox)
      .set({
        status: 'sending',
        attempts: sql`${mailOutbox.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS),
      })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now)))
      .returning();
    return row ?? null;
  };

  /** Rows whose sending process died mid-send: maybe delivered, so never resent (`uncertain`). */
  const expireLeases = async () => {
    const rows = await db
      .update(mailOutbox)
      .set({ status: 'uncertain', lastError: 'interrupted while sending' })
      .where(and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.nextAttemptAt, clock())))
      .returning({ id: mailOutbox.id, kind: mailOutbox.kind });
    for (const r of rows)
      log.warn(
        { mailId: r.id, kind: r.kind },
        'mail interrupted while sending: not resent (may have arrived)',
      );
    return rows.length;
  };

  /** One row through `smtp` (a session: the rows of one call share its connection). */
  const send = async (id: string, smtp: SmtpSession): Promise<boolean> => {
    const row = await claim(id);
    if (!row) return false;
    try {
      await smtp.send({
        messageId: messageId(row.id),
        from: opts.from,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html ?? undefined,
        replyTo: row.replyTo ?? undefined,
        attachments: (row.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content })),
      });
    } catch (err) {
      const code = err instanceof SmtpFailure ? err.code : 'send_failed';
      if (err instanceof SmtpFailure && err.maybeAccepted) {
        // No answer after the server had the whole message: it may have arrived, so never resent.
        await db
          .update(mailOutbox)
          .set({
            status: 'uncertain',
            lastError: `no answer after the message was sent (${code})`.slice(0, 80),
          })
          .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'sending')));
        log.warn(
          { mailId: id, kind: row.kind, code },
          'mail may have arrived (no answer after it was sent): not resent',
        );
        return false;
      }
      // Nothing was accepted (refused, unreachable, or failed before the message's end): retry later.
      const failed = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(mailOutbox)
        .set({
          status: failed ? 'failed' : 'queued',
          lastError: String(code).slice(0, 80),
          nextAttemptAt: new Date(clock().getTime() + backoffMs(row.attempts)),
        })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'sending')));
      log.warn({ mailId: id, kind: row.kind, attempts: row.attempts, code }, 'mail delivery failed');
      return false;
    }
    faultPoint('mail-after-accept');
    try {
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: clock(), lastError: null })
        .where(eq(mailOutbox.id, id));
      log.info({ mailId: id, kind: row.kind }, 'mail sent');
      return true;
    } catch (err) {
      // Accepted but not recorded: the row stays `sending` and becomes `uncertain`, never resent.
      log.error({ err, mailId: id }, 'mail accepted but its state could not be saved');
      return true;
    }
  };

  return {
    enabled: transport !== null,
    async deliverNow(ids) {
      if (!transport) {
        for (const id of ids) log.info({ mailId: id }, 'mail kept in the outbox: no SMTP_URL configured');
        return;
      }
      const smtp = transport.session();
      try {
        for (const id of ids)
          await send(id, smtp).catch((err) => log.error({ err, mailId: id }, 'mail delivery crashed'));
      } finally {
        smtp.end();
      }
    },
    async deliverDue() {
      if (!transport) return 0;
      await expireLeases();
      // Oldest due first, batch after batch until none is due: a backlog longer than one batch must
      // not leave the newest rows (or any row, in no order) waiting for later sweeps. Every row taken
      // leaves `queued` or moves its next attempt ahead, so the loop ends.
      // One session for the sweep: its rows share a connection (a new one after any failure).
      let sent = 0;
      const smtp = transport.session();
      try {
        for (let taken = 0; taken < SWEEP_MAX; ) {
          const due = await db
            .select({ id: mailOutbox.id })
            .from(mailOutbox)
            .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, clock())))
            .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
            .limit(BATCH);
          for (const { id } of due) if (await send(id, smtp)) sent += 1;
          taken += due.length;
          if (due.length < BATCH) break;
        }
      } finally {
        smtp.end();
      }
      return sent;
    },
    close() {
      transport?.close();
    },
  };
}
