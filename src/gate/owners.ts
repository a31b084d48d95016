// The two owner questions the app's lists and notices ask, answered only here: which websites a person
// owns (every owner page lists only those: approvals, Activity, mail, the home, deleted sites,
// connections), and who owns a website (who is told of a new lead, booking request or plan). Owning is
// the `owner` role on the website itself; a role on another site of the workspace gives nothing.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users, websiteMembers } from '../db/schema.js';

/** The ids of the websites `userId` owns, as a subquery to filter a list by (`inArray(col, …)`). */
export function ownedWebsiteIds(db: Db, userId: string) {
  return db
    .select({ id: websiteMembers.websiteId })
    .from(websiteMembers)
    .where(and(eq(websiteMembers.userId, userId), eq(websiteMembers.role, 'owner')));
}

/** The addresses of the owners of one website (the people a notice about it goes to). */
export function ownerEmails(db: Db, websiteId: string): Promise<Array<{ email: string }>> {
  return db
    .select({ email: users.email })
    .from(websiteMembers)
    .innerJoin(users, eq(users.id, websiteMembers.userId))
    .where(and(eq(websiteMembers.websiteId, websiteId), eq(websiteMembers.role, 'owner')));
}
