// Delivery of the mail outbox through nodemailer to SMTP_URL, with retries (DESIGN §2 Mail, §6).
// Each row is claimed with a conditional UPDATE before sending, so two processes never send one row.
// Without SMTP_URL the message stays in the outbox and the log notes it — by id and kind only, never
// the address or the body (no personal data in logs).
import { and, eq, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export const MAX_ATTEMPTS = 8;
const BATCH = 20;

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
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;

  /** Claims one due row (attempts+1, next attempt pushed back) so no other process sends it meanwhile. */
  const claim = async (id: string) => {
    const now = clock();
    const [row] = await db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + 60_000) })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now)))
      .returning();
    return row ?? null;
  };

  const send = async (id: string): Promise<boolean> => {
    if (!transport) return false;
    const row = await claim(id);
    if (!row) return false;
    try {
      await transport.sendMail({
        from: opts.from,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html ?? undefined,
        attachments: (row.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content })),
      });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: clock(), lastError: null })
        .where(eq(mailOutbox.id, id));
      log.info({ mailId: id, kind: row.kind }, 'mail sent');
      return true;
    } catch (err) {
      const code = (err as { code?: string; responseCode?: number }).code ?? 'send_failed';
      const failed = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(mailOutbox)
        .set({
          status: failed ? 'failed' : 'queued',
          lastError: String(code).slice(0, 80),
          nextAttemptAt: new Date(clock().getTime() + backoffMs(row.attempts)),
        })
        .where(eq(mailOutbox.id, id));
      log.warn({ mailId: id, kind: row.kind, attempts: row.attempts, code }, 'mail delivery failed');
      return false;
    }
  };

  return {
    enabled: transport !== null,
    async deliverNow(ids) {
      if (!transport) {
        for (const id of ids) log.info({ mailId: id }, 'mail kept in the outbox: no SMTP_URL configured');
        return;
      }
      for (const id of ids)
        await send(id).catch((err) => log.error({ err, mailId: id }, 'mail delivery crashed'));
    },
    async deliverDue() {
      if (!transport) return 0;
      const due = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, clock())))
        .limit(BATCH);
      let sent = 0;
      for (const { id } of due) if (await send(id)) sent += 1;
      return sent;
    },
    close() {
      transport?.close();
    },
  };
}
