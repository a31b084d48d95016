// Single use under concurrency (R-PLAN-4): 20 simultaneous confirm_pending_action calls on
// one approved plan perform the action exactly once; every other call gets plan_used.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { companies, documents, mailOutbox } from '../../src/db/schema.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { fixture, planRow, prepareAndApprove } from './rail.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;

async function race(token: string, planId: string) {
  const results = await Promise.all(
    Array.from({ length: 20 }, () => s.call(token, 'confirm_pending_action', { planId })),
  );
  return {
    ok: results.filter((r) => r.ok).length,
    codes: [...new Set(results.filter((r) => !r.ok).map((r) => r.error?.code))],
  };
}

it('20 concurrent confirms of a create-company plan create exactly one company', async () => {
  const f = await fixture(s);
  const name = `Race Bakery ${f.demo.companyId}`;
  const planId = await prepareAndApprove(s, f, 'prepare_create_company', { name });
  const r = await race(f.demo.tokens.all, planId);
  expect(r).toEqual({ ok: 1, codes: ['plan_used'] });
  expect(await db().select().from(companies).where(eq(companies.name, name))).toHaveLength(1);
  expect((await planRow(s, planId))!.status).toBe('redeemed');
});

it('20 concurrent confirms of a send-document plan queue exactly one email', async () => {
  const f = await fixture(s);
  const [inv] = await db()
    .select()
    .from(documents)
    .where(and(eq(documents.websiteId, f.demo.websites.main), eq(documents.number, 'INV-2026-014')));
  const planId = await prepareAndApprove(s, f, 'prepare_send_document', { documentId: inv!.id });
  const r = await race(f.demo.tokens.all, planId);
  expect(r).toEqual({ ok: 1, codes: ['plan_used'] });
  const mails = await db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.websiteId, f.demo.websites.main), eq(mailOutbox.kind, 'document')));
  expect(mails).toHaveLength(1);
});
