// The customer lists read a page, not the website's records: on a website with 20,000 leads, bookings
// and contacts (bulk SQL, analysed), the first page and a later page of each list are planned as a walk
// of the table's list index with no sort of the website's rows, and answer at most the page size plus
// one; an erasure's search of their free text walks a trigram index. A query plan, not a timing: it
// holds on the embedded database and on PostgreSQL alike.
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings, contacts, leads } from '../../src/db/schema.js';
import type { Demo } from '../../src/demo/seed.js';
import { seedDemo } from '../../src/demo/seed.js';
import type { DirectSiteCtx } from '../../src/domain/context.js';
import { encodeCursor } from '../../src/domain/crm/cursor.js';
import { bookingLists } from '../../src/domain/bookings/owner.js';
import { liveFigures } from '../../src/domain/analytics/rollup.js';
import { mentionedIn } from '../../src/domain/crm/erase.js';
import { pageQuery } from '../../src/domain/crm/list.js';
import type { Database } from '../../src/db/client.js';
import { testDatabase, uniqueTag } from '../helpers/db.js';

const ROWS = 20_000;
let database: Database;
let demo: Demo;

beforeAll(async () => {
  database = await testDatabase();
  demo = await seedDemo(database.db, { tag: uniqueTag() });
  const site = demo.websites.main;
  const common = `'${site}', 'new', now() - g * interval '7 seconds' - g * interval '1 microsecond'`;
  await database.db.execute(
    sql.raw(`insert into leads (id, website_id, status, created_at, name, email)
      select 'lead_plan_' || g, ${common}, 'Person ' || g, 'p' || g || '@example.com' from generate_series(1, ${ROWS}) g`),
  );
  await database.db.execute(
    sql.raw(`insert into bookings (id, website_id, status, created_at, customer_name, starts_at, ends_at)
      select 'bkg_plan_' || g, ${common}, 'Person ' || g, now() + g * interval '1 hour', now() + g * interval '2 hours'
      from generate_series(1, ${ROWS}) g`),
  );
  await database.db.execute(
    sql.raw(`insert into contacts (id, website_id, status, created_at, name)
      select 'con_plan_' || g, ${common}, 'Person ' || g from generate_series(1, ${ROWS}) g`),
  );
  await database.db.execute(sql`analyze leads, bookings, contacts`);
}, 120_000);

const ctxOf = (): DirectSiteCtx =>
  ({ db: database.db, website: { id: demo.websites.main, companyId: demo.companyId } }) as DirectSiteCtx;

async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  // Inline the parameters as literals for EXPLAIN (they are ids, dates and numbers of this test).
  const literal = text.replace(/\$(\d+)/g, (_, i) => {
    const v = params[Number(i) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
  const result = (await database.db.execute(sql.raw(`explain ${literal}`))) as unknown as {
    rows: Array<Record<string, string>>;
  };
  return result.rows.map((r) => Object.values(r)[0]).join('\n');
}

describe.each([
  ['leads', leads, 'leads_list_idx'],
  ['bookings', bookings, 'bookings_list_idx'],
  ['contacts', contacts, 'contacts_list_idx'],
] as const)('the %s list', (_name, table, index) => {
  it('walks its list index for the first page and a later one, with no sort', async () => {
    const first = pageQuery(database.db, table, ctxOf(), { limit: 25 });
    const plan = await planOf(first);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/\bSort\b/);
    const rows = await first;
    expect(rows).toHaveLength(26);
    const later = pageQuery(database.db, table, ctxOf(), {
      limit: 25,
      cursor: encodeCursor(rows[24]! as { id: string; createdAt: Date }),
    });
    const laterPlan = await planOf(later);
    expect(laterPlan).toContain(index);
    expect(laterPlan).not.toMatch(/\bSort\b/);
    const next = await later;
    // The next page starts right after the cursor's row: nothing skipped, nothing repeated.
    expect(next[0]!.id).toBe(rows[25]!.id);
  });
});

// An erasure searches the free text of every record of the website for the address (a visitor's
// message, the owner's note): planned as a walk of the table's trigram index, not a read of each record.
describe.each([
  ['leads', leads, [leads.message, leads.note], 'leads_free_text_idx'],
  ['bookings', bookings, [bookings.message, bookings.note], 'bookings_free_text_idx'],
  ['contacts', contacts, [contacts.note], 'contacts_free_text_idx'],
] as const)('the erasure search of %s', (_name, table, cols, index) => {
  it('walks its trigram index', async () => {
    const query = database.db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.websiteId, demo.websites.main), mentionedIn([...cols], 'p17@example.com')));
    expect(await planOf(query)).toContain(index);
  });
});

// The console's bookings page: each of its lists is an index range of at most a page, whatever the
// bookings ahead (here 20,000 of them, none a request or confirmed).
describe('the console bookings lists', () => {
  it.each([
    ['upcoming', 'bookings_status_idx'],
    ['requested', 'bookings_status_idx'],
    ['closedAhead', 'bookings_closed_idx'],
    ['begun', 'bookings_website_idx'],
  ] as const)('%s walks %s', async (list, index) => {
    const query = bookingLists(database.db, demo.websites.main, new Date())[list];
    const plan = await planOf(query);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/Seq Scan on bookings/);
  });
});

// A summary's read of the events since today's figures were built: whether each event's visitor was
// already counted is an index probe of that visitor's own events (analytics_visitor_idx), not a read
// of the day's events, on a day of 20,000 page views by 3,000 visitors (hashes salted per day).
describe('the analytics summary since the build of today’s figures', () => {
  it('probes each visitor through analytics_visitor_idx', async () => {
    const site = demo.websites.main;
    await database.db.execute(
      sql.raw(`insert into analytics_events (website_id, kind, path, visitor_hash, occurred_at)
        select '${site}', 'pageview', (array['/', '/about', '/menu'])[1 + g % 3],
          md5(current_date::text || '-' || (g % 3000)), now() - g * interval '3 seconds'
        from generate_series(1, 20000) g`),
    );
    await database.db.execute(sql`analyze analytics_events`);
    const built = new Date(Date.now() - 60_000);
    const plan = (
      (await database.db.execute(
        sql`explain ${liveFigures(site, built, ['kind', 'path', 'referrer', 'visit'], built)}`,
      )) as unknown as { rows: Array<Record<string, string>> }
    ).rows
      .map((r) => Object.values(r)[0])
      .join('\n');
    expect(plan).toContain('analytics_visitor_idx');
    expect(plan).not.toMatch(/Seq Scan on analytics_events/);
  });
});
