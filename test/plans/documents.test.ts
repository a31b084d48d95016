// Sending invoices and quotes through the rail (R-PLAN-8, R-DOC-1): any edit of the stored
// document after review — price, line, recipient, status — refuses the send (one test per kind of edit),
// with nothing sent. Listing the drafts and preparing the plan: test/tools/list_sendable_documents and
// prepare_send_document.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, type DocumentLine, documents, mailOutbox, pendingActions } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { type Fixture, approve, fixture, planRow, prepareAndApprove } from './rail.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

async function doc(f: Fixture, number: string) {
  const [row] = await db()
    .select()
    .from(documents)
    .where(and(eq(documents.websiteId, f.demo.websites.main), eq(documents.number, number)));
  return row!;
}

async function plansOf(websiteId: string) {
  return db().select().from(pendingActions).where(eq(pendingActions.websiteId, websiteId));
}

async function documentMails(f: Fixture) {
  return db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.websiteId, f.demo.websites.main), eq(mailOutbox.kind, 'document')));
}

describe('prepare_send_document → approve → confirm', () => {
  it('shows the recipient, lines and total; confirm sends it once and marks it sent', async () => {
    const f = await fixture(s);
    const inv = await doc(f, 'INV-2026-014');
    const r = await s.call(f.demo.tokens.all, 'prepare_send_document', { documentId: inv.id });
    expect(r.text).not.toMatch(/pat@example\.com|Pat Customer/);
    const planId = r.data!.planId as string;
    const page = await f.owner.get(`/approvals/${planId}`);
    expect(page.body).toContain('Pat Customer &lt;pat@example.com&gt;');
    expect(page.body).toContain('Breakfast box');
    expect(page.body).toContain('EUR 100.00');
    // No SMTP_URL here: the review says nothing will leave before the owner approves.
    expect(page.body).toContain('id="no-mail-server"');
    expect(page.body).toContain('No mail server is configured (SMTP_URL is not set), so nothing leaves');
    expect(await approve(f.owner, planId)).toBe(303);
    const done = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    // No SMTP_URL here: the email is queued, and the result says so instead of "sent".
    expect(done.data?.result).toMatchObject({ number: 'INV-2026-014', status: 'queued' });
    expect(done.data?.result.mail).toContain('SMTP_URL');
    // The owner sees the real state of the email on the home page.
    const home = await f.owner.get('/');
    expect(home.body).toContain('No mail server is configured (SMTP_URL)');
    expect(home.body).toMatch(
      /Invoice INV-2026-014 from Harbor Bakery<\/td><td[^>]*data-mail-state="queued"[^>]*>Queued/,
    );
    expect(done.text).not.toMatch(/pat@example\.com/);
    expect(await doc(f, 'INV-2026-014')).toMatchObject({ status: 'sent' });
    const mails = await documentMails(f);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: 'pat@example.com',
      subject: 'Invoice INV-2026-014 from Harbor Bakery',
    });
    expect(mails[0]!.attachments![0]!.filename).toBe('INV-2026-014.html');
    expect(mails[0]!.text).toContain('Total: EUR 100.00');
  });

  it('refuses a document that was already sent, and plans nothing', async () => {
    const f = await fixture(s);
    const sent = await doc(f, 'INV-2026-013');
    expect(
      (await s.call(f.demo.tokens.all, 'prepare_send_document', { documentId: sent.id })).error?.code,
    ).toBe('conflict');
    expect(await plansOf(f.demo.websites.main)).toHaveLength(0);
  });

  it('refuses at confirm when the agency withheld invoicing after approval, and sends nothing', async () => {
    const f = await fixture(s);
    const inv = await doc(f, 'INV-2026-014');
    const planId = await prepareAndApprove(s, f, 'prepare_send_document', { documentId: inv.id });
    await db()
      .update(companies)
      .set({ withheldAreas: ['invoicing'] })
      .where(eq(companies.id, f.demo.companyId));
    const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
    expect(r.error?.code).toBe('area_disabled');
    expect(await documentMails(f)).toHaveLength(0);
    expect((await doc(f, 'INV-2026-014')).status).toBe('draft');
  });
});

describe('an edit of the stored document after review refuses the send', () => {
  const edits: Array<[string, (d: typeof documents.$inferSelect) => Partial<typeof documents.$inferInsert>]> =
    [
      [
        'price',
        (d) => ({
          lines: d.lines.map(
            (l, i): DocumentLine => (i === 0 ? { ...l, unitPriceCents: l.unitPriceCents + 1 } : l),
          ),
          totalCents: d.totalCents + 2,
        }),
      ],
      ['line', (d) => ({ lines: [...d.lines, { description: 'Extra', quantity: 1, unitPriceCents: 0 }] })],
      ['recipient', () => ({ recipientEmail: 'someone.else@example.com' })],
      ['status', () => ({ status: 'void' })],
    ];
  for (const [what, edit] of edits) {
    it(`an edited ${what}: plan_revision_changed, nothing sent`, async () => {
      const f = await fixture(s);
      const inv = await doc(f, 'INV-2026-014');
      const planId = await prepareAndApprove(s, f, 'prepare_send_document', { documentId: inv.id });
      await db().update(documents).set(edit(inv)).where(eq(documents.id, inv.id));
      const edited = await doc(f, 'INV-2026-014');
      const r = await s.call(f.demo.tokens.all, 'confirm_pending_action', { planId });
      expect(r.error?.code).toBe('plan_revision_changed');
      expect(r.error?.hint).toMatch(/prepare/);
      expect(await documentMails(f)).toHaveLength(0);
      expect(await doc(f, 'INV-2026-014')).toEqual(edited);
      expect((await planRow(s, planId))!.status).toBe('approved');
    });
  }
});
