// "Last used" of a connection (the Developers page): written on its first call, reads and writes alike,
// then at most once per LAST_USED_EVERY_MS, each connection with its own time.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connections } from '../../src/db/schema.js';
import { LAST_USED_EVERY_MS } from '../../src/domain/activity/recorder.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { testClock } from '../plans/rail.js';

const time = testClock();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false, clock: time.clock });
});
afterAll(() => s?.close());

async function lastUsed(ids: string[]): Promise<Record<string, number | null>> {
  const rows = await s.sg.deps.services.db
    .select({ id: connections.id, at: connections.lastUsedAt })
    .from(connections)
    .where(inArray(connections.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.at?.getTime() ?? null]));
}

it('is set by the first call, kept within the window, moved by the first call after it', async () => {
  const d = await s.seed();
  const { all, workspace } = d.connections;
  await s.sg.deps.services.db
    .update(connections)
    .set({ lastUsedAt: null })
    .where(inArray(connections.id, [all, workspace]));

  const t0 = time.clock().getTime();
  expect((await s.call(d.tokens.all, 'list_pages', { websiteId: d.websites.main })).ok).toBe(true);
  await s.sg.deps.activity.flush();
  expect(await lastUsed([all, workspace])).toEqual({ [all]: t0, [workspace]: null });

  // A write (its Activity line in the write's transaction) within the window: not written again.
  time.advance(LAST_USED_EVERY_MS / 2);
  const edit = await s.call(d.tokens.all, 'update_section_text', {
    pageId: d.pages.home,
    sectionId: d.sections.hero,
    text: { heading: 'Fresh bread daily' },
  });
  expect(edit.ok).toBe(true);
  // Another connection's first call in the same batch gets its own time, not the other's.
  const t1 = time.clock().getTime();
  expect((await s.call(d.tokens.workspace, 'list_pages', { websiteId: d.websites.main })).ok).toBe(true);
  await s.sg.deps.activity.flush();
  expect(await lastUsed([all, workspace])).toEqual({ [all]: t0, [workspace]: t1 });

  // Past the window: the next call moves it.
  time.advance(LAST_USED_EVERY_MS / 2);
  const t2 = time.clock().getTime();
  expect((await s.call(d.tokens.all, 'list_pages', { websiteId: d.websites.main })).ok).toBe(true);
  await s.sg.deps.activity.flush();
  expect(await lastUsed([all, workspace])).toEqual({ [all]: t2, [workspace]: t1 });

  // The Developers page reads the same column: a refused call (another tenant's site) counts as use too.
  time.advance(LAST_USED_EVERY_MS);
  const t3 = time.clock().getTime();
  const refused = await s.call(d.tokens.all, 'list_pages', { websiteId: d.websites.otherTenant });
  expect(refused.ok).toBe(false);
  await s.sg.deps.activity.flush();
  const [row] = await s.sg.deps.services.db.select().from(connections).where(eq(connections.id, all));
  expect(row!.lastUsedAt!.getTime()).toBe(t3);
});
