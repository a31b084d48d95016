// Shared steps of the reviewed-plan tests: a fresh fixture with the owner signed in, reading plans
// back from the database, and a controllable server clock.
import { eq } from 'drizzle-orm';
import type { Demo } from '../../src/demo/seed.js';
import { pendingActions } from '../../src/db/schema.js';
import type { TestServer } from '../helpers/server.js';
import { type WebSession, signIn } from '../helpers/web.js';

export type Fixture = { demo: Demo; owner: WebSession };

/** A controllable clock: starts at real time (or `start`), moves only when told. */
export function testClock(start = Date.now()) {
  let now = start;
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export async function fixture(s: TestServer): Promise<Fixture> {
  const demo = await s.seed();
  const owner = await signIn(s.url, demo.users.owner.email, demo.users.owner.password);
  return { demo, owner };
}

export async function planRow(s: TestServer, planId: string) {
  const [row] = await s.sg.deps.services.db
    .select()
    .from(pendingActions)
    .where(eq(pendingActions.id, planId));
  return row;
}

/** Approves through the real page: opens it (fresh CSRF token), posts the form. Returns the status. */
export async function approve(web: WebSession, planId: string): Promise<number> {
  await web.get(`/approvals/${planId}`);
  return (await web.post(`/approvals/${planId}/approve`)).status;
}

export async function prepareAndApprove(
  s: TestServer,
  f: Fixture,
  tool: string,
  args: Record<string, unknown> = {},
  token = f.demo.tokens.all,
): Promise<string> {
  const r = await s.call(token, tool, args);
  if (!r.ok) throw new Error(`${tool} refused: ${JSON.stringify(r.error)}`);
  const planId = r.data!.planId as string;
  const status = await approve(f.owner, planId);
  if (status !== 303) throw new Error(`approval refused with ${status}`);
  return planId;
}
