// Before a replay is answered (docs/reliability.md, "Retries"): every website the stored call touched
// is checked as it is now, so a caller who has lost a website, or a website that is gone, gets the
// answer a fresh call would get instead of the day-old one. The call's own website has been through
// the gate already (src/mcp/call.ts); here the others: each website the first call was authorized on
// besides it (a merge target), under the tool's own rule, and the website it created, which must still
// stand in the workspace.
import type { Caller } from '../../kernel/caller.js';
import type { Db } from '../../db/client.js';
import { type GateRule, authorize, createsSite } from '../../gate/authorize.js';
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

/** Throws the refusal a caller would get now for any website the stored call touched. */
export async function recheckReplay(
  db: Db,
  caller: Caller,
  rule: GateRule,
  input: Readonly<Record<string, unknown>>,
  replay: { data: unknown; targets: readonly string[] },
): Promise<void> {
  for (const id of replay.targets) await authorize(db, caller, rule, id);
  const created = createdSiteOf(rule, input, replay.data);
  if (created) await assertSiteStands(db, caller.companyId, created);
}
