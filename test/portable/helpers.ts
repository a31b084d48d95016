// Read-back helpers for import tests: what a workspace holds (websites, pages, sections, assets,
// blobs), so every refusal can show that nothing was written.
import { count, eq, inArray } from 'drizzle-orm';
import { assets, pages, sections, websites } from '../../src/db/schema.js';
import type { DirectSiteCtx } from '../../src/domain/context.js';
import { noProgress } from '../../src/domain/context.js';
import type { TestServer } from '../helpers/server.js';
import type { Workspace } from '../helpers/factory.js';

export async function footprint(s: TestServer, companyId: string) {
  const db = s.sg.deps.services.db;
  const sites = await db.select({ id: websites.id }).from(websites).where(eq(websites.companyId, companyId));
  const ids = sites.map((w) => w.id);
  const n = async (table: typeof pages | typeof sections | typeof assets) =>
    Number((await db.select({ n: count() }).from(table).where(inArray(table.websiteId, ids)))[0]?.n ?? 0);
  return {
    websites: ids.length,
    pages: await n(pages),
    sections: await n(sections),
    assets: await n(assets),
    blobs: (await s.sg.deps.services.blobs.list()).length,
  };
}

export async function siteCtx(
  s: TestServer,
  demo: Workspace,
  websiteId = demo.websites.main,
): Promise<DirectSiteCtx> {
  const db = s.sg.deps.services.db;
  const [website] = await db.select().from(websites).where(eq(websites.id, websiteId));
  return {
    db,
    now: new Date(),
    actor: { userId: demo.users.owner.id, companyId: demo.companyId, connectionId: null },
    services: s.sg.deps.services,
    progress: noProgress,
    website: website!,
    role: 'owner',
  };
}
