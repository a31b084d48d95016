// The one shape of an owner's action in the console: a form POST to a site console path. The CSRF guard
// of session.ts has already checked the form's token (a POST without it is refused before this runs).
// Then, in one transaction (asPerson): the gate decides on live facts for the signed-in person, the
// route's `input` reads the form, and one domain function runs; that function writes the action's
// Activity line in the same transaction (src/domain/activity/owner.ts), so a committed change always
// has its line and a refused one has neither. Afterwards: a redirect to the page with a `?done=` flash,
// or, for a refusal, the "Not possible" page with a way back to the page the owner came from.
import type { Context, Hono } from 'hono';
import { asPerson } from '../../domain/as-person.js';
import type { SiteCtx } from '../../domain/context.js';
import type { PersonAction } from '../../gate/person.js';
import type { AppDeps } from '../deps.js';
import { answerRefusalsWith, refusalPage } from '../refusal.js';
import type { WebEnv } from '../session.js';
import type { ConsoleBase } from '../pages/console.js';
import { timeZoneOf } from '../../domain/crm/booking-request.js';

export type Form = Record<string, unknown>;

/** A form field as one bounded string ('' when absent or repeated). */
export function field(form: Form, name: string, max = 500): string {
  const v = form[name];
  return typeof v === 'string' ? v.slice(0, max) : '';
}

export type OwnerAction<I, R> = {
  /** The POST path, under `/dashboard/sites/:websiteId`. */
  path: string;
  action: PersonAction;
  /** Reads what the action needs from the form and the path's parameters (no rule lives here). */
  input: (form: Form, params: Record<string, string>) => I;
  run: (ctx: SiteCtx, input: I) => Promise<R>;
  /** Where the browser goes afterwards (with its `?done=` flash). */
  done: (websiteId: string, result: R) => string;
  /** Where a refusal page leads back to. */
  back: (websiteId: string) => { href: string; label: string };
};

export function ownerAction<I, R>(app: Hono<WebEnv>, deps: AppDeps, spec: OwnerAction<I, R>): void {
  const backTo = answerRefusalsWith((c, err, status) =>
    refusalPage(spec.back((c as Context<WebEnv>).req.param('websiteId') ?? ''))(c, err, status),
  );
  app.post(spec.path, backTo, async (c) => {
    const websiteId = c.req.param('websiteId') ?? '';
    const form = await c.req.parseBody();
    const params = c.req.param() as Record<string, string>;
    // The form is read after the gate decided: a person who may not act learns nothing from it.
    const result = await asPerson(deps.services, c.get('user')!.id, spec.action, websiteId, (ctx) =>
      spec.run(ctx, spec.input(form, params)),
    );
    return c.redirect(spec.done(websiteId, result), 303);
  });
}

/**
 * A console page's data: the gate decides for the signed-in person on live facts, then `load` reads
 * what the page shows, in the same transaction.
 */
export async function consoleView<T>(
  c: Context<WebEnv>,
  deps: AppDeps,
  action: PersonAction,
  load: (ctx: SiteCtx) => Promise<T>,
): Promise<ConsoleBase & T> {
  const user = c.get('user')!;
  return asPerson(deps.services, user.id, action, c.req.param('websiteId') ?? '', async (ctx, site) => ({
    user,
    csrf: c.get('csrf'),
    siteId: site.id,
    siteName: site.name,
    timeZone: timeZoneOf(site.config),
    ...(await load(ctx)),
  }));
}
