// The benchmark's statement count (SITEGATE_COUNT_ROUND_TRIPS=1, bench/ladder.ts) must count what a
// write really sends on both backends: PGlite runs a transaction's statements on an object of its own
// and sends BEGIN and COMMIT itself, which the count used to miss (0.3 "trips" per PGlite write).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { roundTrips } from '../../src/kernel/round-trips.js';

let database: Database;
beforeAll(async () => {
  roundTrips.enabled = true; // read once at load in the service; the clients opened now are counted
  const url = process.env.DATABASE_URL;
  database = await openDatabase(url ? { databaseUrl: url } : { memory: true });
}, 60_000);
afterAll(async () => {
  roundTrips.enabled = false;
  await database?.close();
});

it(`counts a transaction's BEGIN, statements and COMMIT, and a lone statement once`, async () => {
  const db = database.db;
  const start = roundTrips.db;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    await tx.execute(sql`select 2`);
  });
  expect(roundTrips.db - start).toBe(4);
  await db.execute(sql`select 3`);
  expect(roundTrips.db - start).toBe(5);
  await expect(
    db.transaction(async (tx) => {
      await tx.execute(sql`select 4`);
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(roundTrips.db - start).toBe(8); // BEGIN, the statement, ROLLBACK
});
