// Retention (SPEC §8: Activity 90 days; plans expire after 5 minutes; sessions and pairings end):
// the clean-ups the running service repeats, and `sitegate admin retention` runs once.
import { purgeIdpRows } from '../auth/oauth/idp-store.js';
import { purgePairings } from '../auth/pairing.js';
import { purgeSessions } from '../auth/sessions.js';
import type { Db } from '../db/client.js';
import { purgeActivity } from '../domain/activity/recorder.js';
import { purgeDeletedSites } from '../domain/sites/delete.js';
import { purgeExpiredPlans } from '../plans/store.js';

export type Retention = { name: string; everyMs: number; run: (db: Db, now: Date) => Promise<unknown> };

export const RETENTION: Retention[] = [
  { name: 'activity', everyMs: 3_600_000, run: purgeActivity },
  { name: 'sessions', everyMs: 3_600_000, run: purgeSessions },
  // Reviewed plans: expired ones are garbage-collected (SPEC §3).
  { name: 'plans', everyMs: 60_000, run: purgeExpiredPlans },
  { name: 'pairings', everyMs: 3_600_000, run: purgePairings },
  // The development identity provider's expired grants, sessions and codes.
  { name: 'idp', everyMs: 3_600_000, run: purgeIdpRows },
  // Websites the owner deleted more than 30 days ago, with everything they hold; their library bytes
  // follow with the blob sweep (blobs no asset references).
  { name: 'deleted-sites', everyMs: 3_600_000, run: purgeDeletedSites },
];
