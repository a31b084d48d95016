// The fault suite: one real server is killed with SIGKILL at a chosen point per step
// (test-only hook, src/kernel/fault.ts: SITEGATE_FAULT) and restarted on the same data — the embedded
// database in its DATA_DIR, or a fresh PostgreSQL database of its own when DATABASE_URL is set — and at
// the end the invariants of docs/reliability.md are checked on what it left behind:
// every committed write has its Activity line, credits are exact, no partial site, no orphan blob
// after the sweep. The steps run in order and share the data directory (one cold start in all).
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activity,
  assets,
  companies,
  creditReservations,
  mailOutbox,
  pages,
  websites,
} from '../../src/db/schema.js';
import {
  BLOB_GRACE_MS,
  databaseBlobStore,
  fileBlobStore,
  sweepBlobs,
} from '../../src/domain/library/blobs.js';
import { RESERVATION_LEASE_MS, settleReservations } from '../../src/domain/library/generate.js';
import { SEND_LEASE_MS, createMailer } from '../../src/domain/mail/mailer.js';
import { queueMail } from '../../src/domain/mail/outbox.js';
import { until } from '../helpers/process.js';
import { startSmtp } from '../helpers/smtp.js';
import { type AssetServer, bigSite, pixel, startAssetServer } from '../portable/fixtures.js';
import { type Child, backend, call, killed, preparedDataDir, start, stop, withDb } from './harness.js';

const dir = preparedDataDir('faults');
let store: Awaited<ReturnType<typeof backend>>;
const where = () => ({ dataDir: dir, databaseUrl: store.databaseUrl });
const title = 'Opening hours after the crash';
let files: AssetServer;
let onlyHere: Buffer;
let demo: Child['demo'];
let last: Child | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let mailId = '';
const to = 'fault-quote@example.com';

beforeAll(async () => {
  store = await backend();
  smtp = await startSmtp();
  onlyHere = await pixel('#0b1c2d');
  files = await startAssetServer({ '/img/only-here.png': { type: 'image/png', body: onlyHere } });
});
afterAll(async () => {
  if (last) await stop(last);
  await files?.close();
  await smtp?.close();
  await store?.drop();
});

describe.sequential('kill -9 at chosen points, then restart', () => {
  it('right after a write commits (before the answer)', async () => {
    const c = await start(dir, { ...store.env, SITEGATE_FAULT: 'after-write-commit' });
    demo = c.demo;
    last = c;
    // Without SMTP_URL the server says loudly, at start, that no email can leave.
    await until(() => c.server.err().includes('SMTP_URL is not set'), 100);
    expect(
      await call(c, demo.tokens.all, 'create_page', { websiteId: demo.websites.main, title }),
    ).toBeNull();
    await killed(c);
  }, 120_000);

  it('mid-generate_image: the provider answered, the image is not stored yet', async () => {
    const c = await start(dir, { ...store.env, SITEGATE_FAULT: 'generate-after-provider' });
    last = c;
    const r = await call(c, demo.tokens.all, 'generate_image', {
      websiteId: demo.websites.main,
      prompt: 'Loaves at dawn',
    });
    expect(r).toBeNull();
    await killed(c);
  }, 120_000);

  it('mid-import: the image bytes are written, the transaction has not committed', async () => {
    const c = await start(dir, {
      ...store.env,
      SITEGATE_FAULT: 'import-after-blobs',
      CRAWL_ALLOW_HOSTS: files.hostPort,
    });
    last = c;
    const site = { ...bigSite(1, 2), assets: [{ key: 'x', url: `${files.base}/img/only-here.png` }] };
    expect(
      await call(c, demo.tokens.workspace, 'import_site', { websiteId: demo.websites.main, site }),
    ).toBeNull();
    await killed(c);
  }, 120_000);

  it('after the SMTP server accepted a message (250), before the outbox row was marked sent', async () => {
    mailId = await withDb(where(), (db) =>
      queueMail(
        db,
        { websiteId: demo.websites.main, kind: 'document', to, subject: 'Quote Q-7', text: 'Quote body' },
        new Date(),
      ),
    );
    // The retry job runs at start: it claims the row, sends it, and dies right after the 250.
    const c = await start(dir, { ...store.env, SITEGATE_FAULT: 'mail-after-accept', SMTP_URL: smtp.url });
    last = c;
    await killed(c);
    expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(c.server.err()).not.toContain('SMTP_URL is not set');
  }, 120_000);

  it('after the restarts: a new call is charged once; the dead call’s credit is settled', async () => {
    // With the mail server still there: the retry job must not resend the interrupted message.
    const c = await start(dir, { ...store.env, SMTP_URL: smtp.url });
    last = c;
    const r = await call(c, demo.tokens.all, 'generate_image', {
      websiteId: demo.websites.main,
      prompt: 'Loaves at noon',
    });
    expect(r?.ok).toBe(true);
    // The embedded database settles at start (one process owns it): the dead call's credit is back.
    // On PostgreSQL other processes may hold live reservations: the job settles it once its lease ends.
    expect(r?.data).toMatchObject({ creditsSpent: 1, creditsLeft: store.databaseUrl ? 38 : 39 });
    await stop(c);
    last = undefined;
  }, 120_000);

  it('what survived: Activity, credits, no partial site, no orphan blob after the sweep', async () => {
    await withDb(where(), async (db) => {
      // What the settling job does once the dead call's lease has run out (a no-op if already settled).
      await settleReservations(db, new Date(Date.now() + RESERVATION_LEASE_MS + 60_000));
      // The committed write has its Activity line.
      expect(await db.select().from(pages).where(eq(pages.title, title))).toHaveLength(1);
      const created = await db
        .select()
        .from(activity)
        .where(and(eq(activity.tool, 'create_page'), eq(activity.outcome, 'allowed')));
      expect(created).toHaveLength(1);

      // Credits: 40 at the start, one image delivered, the dead call's credit refunded.
      const [site] = await db.select().from(websites).where(eq(websites.id, demo.websites.main));
      const [co] = await db.select().from(companies).where(eq(companies.id, site!.companyId));
      expect(co!.credits).toBe(39);
      expect(await db.select().from(creditReservations)).toHaveLength(0);
      const generated = await db
        .select()
        .from(assets)
        .where(and(eq(assets.websiteId, demo.websites.main), eq(assets.source, 'generated')));
      expect(generated).toHaveLength(1);
      const charged = await db
        .select()
        .from(activity)
        .where(and(eq(activity.tool, 'generate_image'), eq(activity.outcome, 'allowed')));
      expect(charged.map((l) => l.creditsSpent)).toEqual([1]);

      // No partial site: the killed import left no website (the demo's company still has its two).
      const sites = await db.select().from(websites).where(eq(websites.companyId, site!.companyId));
      expect(sites.map((w) => w.name)).not.toContain(bigSite(1, 2).name);

      // Its bytes were written first and nothing names them: the sweep removes them after the grace period.
      const blobs = where().databaseUrl ? databaseBlobStore(db) : fileBlobStore(path.join(dir, 'blobs'));
      const all = await blobs.list();
      const referenced = new Set(
        (await db.select({ sha: assets.sha256 }).from(assets).where(inArray(assets.sha256, all))).map(
          (a) => a.sha,
        ),
      );
      const orphans = all.filter((sha) => !referenced.has(sha));
      expect(orphans.length).toBeGreaterThan(0);
      expect(await sweepBlobs(blobs, db, new Date())).toBe(0);
      expect(await sweepBlobs(blobs, db, new Date(Date.now() + BLOB_GRACE_MS + 60_000))).toBe(orphans.length);
      expect((await blobs.list()).sort()).toEqual([...referenced].sort());

      // Mail: sent once, with the row's own Message-ID; the interrupted row is never resent — when its
      // lease runs out it becomes `uncertain` (shown to the owner), still with one message received.
      const received = smtp.received.filter((m) => m.to.includes(to));
      expect(received).toHaveLength(1);
      expect(received[0]!.raw).toMatch(new RegExp(`Message-ID: <${mailId}@`, 'i'));
      const later = new Date(Date.now() + SEND_LEASE_MS + 60_000);
      const mailer = createMailer({
        db,
        log: pino({ level: 'silent' }),
        clock: () => later,
        smtpUrl: smtp.url,
        from: 'Sitegate <mail@sitegate.test>',
      });
      await mailer.deliverDue();
      mailer.close();
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
      expect(row!.status).toBe('uncertain');
      expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    });
  }, 120_000);
});
