// Fixture helpers for the business-area tests: connections made by any member (the app only lets
// owners create them; tests need an editor's to prove owner-only refusals) and company tweaks.
import { eq } from 'drizzle-orm';
import { mintToken } from '../../src/kernel/tokens.js';
import type { Db } from '../../src/db/client.js';
import { newId } from '../../src/kernel/ids.js';
import { companies, connections } from '../../src/db/schema.js';
import { SCOPES } from '../../src/kernel/scopes.js';

export async function tokenFor(
  db: Db,
  o: {
    userId: string;
    websiteId: string;
    companyId: string;
    scopes?: readonly string[];
    reach?: 'workspace';
  },
): Promise<string> {
  const m = mintToken();
  await db.insert(connections).values({
    id: newId('conn'),
    companyId: o.companyId,
    createdBy: o.userId,
    name: 'test connection',
    reach: o.reach ?? 'website',
    websiteId: o.websiteId,
    scopes: [...(o.scopes ?? SCOPES)],
    tokenHash: m.hash,
    tokenPrefix: m.display,
  });
  return m.token;
}

export async function setCompany(db: Db, id: string, set: Partial<typeof companies.$inferInsert>) {
  await db.update(companies).set(set).where(eq(companies.id, id));
}

export async function company(db: Db, id: string) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  return row!;
}
