// The fault suite (issue 10): a real server is killed with SIGKILL at chosen points (test-only fault
// hook, src/ops/fault.ts), restarted, and the invariants of docs/reliability.md are checked on what it
// left behind. Embedded database (the child owns its DATA_DIR); each case takes a few seconds.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { activity, pages } from '../../src/db/schema.js';
import { call, killed, newDataDir, start, withDb } from './harness.js';

it('kill -9 right after a write commits: the write has its Activity line', async () => {
  const dir = newDataDir('fault-activity');
  const c = await start(dir, { SITEGATE_FAULT: 'after-write-commit' });
  const title = 'Opening hours after the crash';
  const answer = await call(c, c.demo.tokens.all, 'create_page', { websiteId: c.demo.websites.main, title });
  expect(answer).toBeNull();
  await killed(c);
  await withDb(dir, async (db) => {
    const made = await db.select().from(pages).where(eq(pages.title, title));
    expect(made).toHaveLength(1);
    const lines = await db
      .select()
      .from(activity)
      .where(and(eq(activity.tool, 'create_page'), eq(activity.outcome, 'allowed')));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.websiteId).toBe(c.demo.websites.main);
  });
}, 120_000);
