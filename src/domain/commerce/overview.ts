// get_commerce_overview (R-TOOL-9): the operations status of one website without personal data —
// counts only: services and products by draft/public, open documents by status, bookings this week.
// Agency areas (R-SURF-4): invoices and quotes belong to the 'invoicing' area. When the agency has
// withheld it, the overview omits every document figure (`documents: null`, `documentsWithheld: true`)
// rather than refusing the whole overview, so the rest stays usable and nothing about documents leaks.
import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import { bookings, documents, products, services } from '../../db/schema.js';
import { areaWithheld } from '../../gate/areas.js';
import type { DirectSiteCtx } from '../context.js';

/** Documents not yet settled: never-sent drafts and sent-but-unpaid ones. */
const OPEN_DOCUMENT_STATUSES = ['draft', 'sent'] as const;

/** Monday 00:00 UTC of the week containing `now`, and the Monday after. */
export function weekOf(now: Date): { from: Date; to: Date } {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const back = (d.getUTCDay() + 6) % 7;
  const from = new Date(d.getTime() - back * 86_400_000);
  return { from, to: new Date(from.getTime() + 7 * 86_400_000) };
}

const n = (v: unknown) => Number(v ?? 0);

export async function commerceOverview(ctx: DirectSiteCtx) {
  const site = ctx.website.id;
  const invoicingWithheld = await areaWithheld(ctx.db, ctx.website.companyId, 'invoicing');

  const byStatus = async (table: typeof services | typeof products) => {
    const rows = await ctx.db
      .select({ status: table.status, n: count() })
      .from(table)
      .where(eq(table.websiteId, site))
      .groupBy(table.status);
    const get = (s: string) => n(rows.find((r) => r.status === s)?.n);
    return { draft: get('draft'), public: get('public'), total: rows.reduce((a, r) => a + n(r.n), 0) };
  };

  const week = weekOf(ctx.now);
  const [bk] = await ctx.db
    .select({ n: count() })
    .from(bookings)
    .where(
      and(eq(bookings.websiteId, site), gte(bookings.startsAt, week.from), lt(bookings.startsAt, week.to)),
    );

  let docs: Array<{ kind: string; status: string; count: number }> | null = null;
  if (!invoicingWithheld) {
    const rows = await ctx.db
      .select({ kind: documents.kind, status: documents.status, n: count() })
      .from(documents)
      .where(and(eq(documents.websiteId, site), inArray(documents.status, [...OPEN_DOCUMENT_STATUSES])))
      .groupBy(documents.kind, documents.status);
    docs = rows
      .map((r) => ({ kind: r.kind, status: r.status, count: n(r.n) }))
      .sort((a, b) => `${a.kind}${a.status}`.localeCompare(`${b.kind}${b.status}`));
  }

  return {
    services: await byStatus(services),
    products: await byStatus(products),
    bookingsThisWeek: { from: week.from.toISOString(), to: week.to.toISOString(), count: n(bk?.n) },
    openDocuments: docs,
    documentsWithheld: invoicingWithheld,
  };
}
