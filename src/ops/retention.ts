// Retention (Activity 90 days; plans expire after 5 minutes; sessions and pairings end;
// idempotency keys answer for 24 hours; analytics events after ANALYTICS_RETENTION_DAYS): the
// clean-ups the running service repeats, and `sitegate admin retention` runs once.
import { purgeIdpRows, purgeUnusedClients } from '../auth/oauth/idp-store.js';
import { purgePairings } from '../auth/pairing.js';
import { purgeSessions } from '../auth/sessions.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { purgeActivity } from '../domain/activity/recorder.js';
import { purgeIdempotencyKeys } from '../domain/idempotency/keys.js';
import { purgeAnalytics } from '../domain/analytics/record.js';
import { purgeAnalyticsDaily } from '../domain/analytics/rollup.js';
import { purgeDeletedSites } from '../domain/sites/delete.js';
import { purgeExpiredPlans } from '../plans/store.js';

/** The settings a clean-up may read. */
export type RetentionSettings = Pick<Config, 'analyticsRetentionDays'>;

export type Retention = {
  name: string;
  everyMs: number;
  run: (db: Db, now: Date, settings: RetentionSettings) => Promise<unknown>;
};

export const RETENTION: Retention[] = [
  { name: 'activity', everyMs: 3_600_000, run: purgeActivity },
  { name: 'sessions', everyMs: 3_600_000, run: purgeSessions },
  // Reviewed plans: expired ones are garbage-collected (R-PLAN-6).
  { name: 'plans', everyMs: 60_000, run: purgeExpiredPlans },
  { name: 'pairings', everyMs: 3_600_000, run: purgePairings },
  // The development identity provider's expired grants, sessions and codes.
  { name: 'idp', everyMs: 3_600_000, run: purgeIdpRows },
  // Idempotency keys past their 24 hours (a repeat after that runs as a new call).
  { name: 'idempotency-keys', everyMs: 3_600_000, run: purgeIdempotencyKeys },
  // Page views and form events of the published sites: kept for a year and a bit by default.
  {
    name: 'analytics',
    everyMs: 3_600_000,
    run: async (db, now, settings) =>
      (await purgeAnalytics(db, now, settings.analyticsRetentionDays)) +
      (await purgeAnalyticsDaily(db, now, settings.analyticsRetentionDays)),
  },
  // Its dynamic client registrations that no person used within 30 days.
  { name: 'idp-clients', everyMs: 3_600_000, run: purgeUnusedClients },
  // Websites the owner deleted more than 30 days ago, with everything they hold; their library bytes
  // follow with the blob sweep (blobs no asset references).
  { name: 'deleted-sites', everyMs: 3_600_000, run: purgeDeletedSites },
];
