// GET /approvals, GET /approvals/:id, POST /approvals/:id/approve|decline (R-PLAN-2, R-WEB-1). Signed-in
// only; the CSRF guard of session.ts has already checked every POST. Rules live in src/plans/approve.ts.
import type { Context, Hono } from 'hono';
import { approvePlan, declinePlan, listApprovals, reviewedView, viewPlan } from '../../plans/approve.js';
import { planHistory } from '../../plans/history.js';
import type { AppDeps } from '../deps.js';
import { ApprovalsPage, PlanPage } from '../pages/approvals.js';
import { answerRefusalsWith, refusalPage } from '../refusal.js';
import { type WebEnv, requireUser } from '../session.js';
import { notFoundPage, renderView } from './preview.js';

/** A refused plan page leads back to the list of plans. */
const BACK = { href: '/approvals', label: 'Back to approvals' };

export function mountApprovals(app: Hono<WebEnv>, deps: AppDeps): void {
  const { services } = deps;
  app.use('/approvals', requireUser());
  app.use('/approvals/*', requireUser(), answerRefusalsWith(refusalPage(BACK)));

  app.get('/approvals', async (c) => {
    const user = c.get('user')!;
    const now = services.clock();
    const items = await listApprovals(services.db, user.id, now);
    const history = await planHistory(services.db, user.id, now);
    return c.html(<ApprovalsPage user={user} csrf={c.get('csrf')} items={items} history={history} />);
  });

  app.get('/approvals/:id', async (c) => {
    const user = c.get('user')!;
    const view = await viewPlan(services, user.id, c.req.param('id'));
    return c.html(
      <PlanPage
        user={user}
        csrf={c.get('csrf')}
        view={view}
        done={c.req.query('done')}
        mailServer={Boolean(services.config.smtpUrl)}
      />,
    );
  });

  // The draft exactly as the owner reviews it in a publish plan (not the live draft).
  const preview = async (c: Context<WebEnv>) => {
    const user = c.get('user')!;
    const id = c.req.param('id') ?? '';
    const reviewed = await reviewedView(services, user.id, id);
    if (!reviewed) return notFoundPage(c);
    return renderView(
      c,
      services.db,
      reviewed.view,
      'draft',
      `/approvals/${id}/preview`,
      reviewed.live
        ? 'The revision this plan reviewed, as it is live now: nothing has changed it since.'
        : 'Preview of the draft exactly as you are reviewing it. Visitors see none of it until you approve and it is carried out.',
    );
  };
  app.get('/approvals/:id/preview', preview);
  app.get('/approvals/:id/preview/*', preview);

  for (const [action, run] of [
    ['approve', approvePlan],
    ['decline', declinePlan],
  ] as const) {
    app.post(`/approvals/:id/${action}`, async (c) => {
      const id = c.req.param('id');
      await run(services, c.get('user')!.id, id);
      return c.redirect(`/approvals/${encodeURIComponent(id)}?done=${action}d`, 303);
    });
  }
}
