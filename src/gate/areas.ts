// Agency areas inside one result (R-SURF-4). The gate refuses a whole tool whose area is withheld
// (authorize.ts). A tool that shows figures from several areas at once — get_commerce_overview shows
// invoicing next to products and bookings — asks here which of them it may show, so the withheld-area
// decision stays in the gate.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { companies } from '../db/schema.js';
import type { Area } from '../kernel/scopes.js';

/** Whether the agency managing `companyId` has withheld `area` from it; read live, like every gate fact. */
export async function areaWithheld(db: Db, companyId: string, area: Area): Promise<boolean> {
  const [row] = await db
    .select({ withheld: companies.withheldAreas })
    .from(companies)
    .where(eq(companies.id, companyId));
  return (row?.withheld ?? []).includes(area);
}
