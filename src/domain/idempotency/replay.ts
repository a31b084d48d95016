// Before a replay is answered (docs/reliability.md, "Retries"), every website the stored call touched
// is checked as it is now, so a website that is gone gets the answer a fresh call would get instead of
// the day-old one. The call path does the gate's part (src/mcp/call/run.ts: the call's own website and
// each other website it was authorized on, such as a merge target); this is the part about the site
// the call created, which must still stand in the workspace.
import type { Db } from '../../db/client.js';
import { type GateRule, createsSite } from '../../gate/authorize.js';
import { assertSiteStands } from '../sites/delete.js';

/** The website a call created, read from its answer; null for a call that creates none (a merge). */
function createdSiteOf(
  rule: GateRule,
  input: Readonly<Record<string, unknown>>,
  data: unknown,
): string | null {
  if (!createsSite(rule, input)) return null;
  const id = (data as { websiteId?: unknown } | null)?.websiteId;
  return typeof id === 'string' ? id : null;
}

/**
 * Throws `not_found` when the website the stored call created is no longer there, saying when it was
 * deleted and can still be restored. The connection need not reach the site (a single-site connection
 * that created another one): the first answer said so, and a replay says it again while the site stands.
 */
export async function assertCreatedSiteStands(
  db: Db,
  companyId: string,
  rule: GateRule,
  input: Readonly<Record<string, unknown>>,
  data: unknown,
): Promise<void> {
  const created = createdSiteOf(rule, input, data);
  if (created) await assertSiteStands(db, companyId, created);
}
