// GET / (the owner's home) and the restore points of each owned website (R-WEB-4,
// R-SITE-4). Signed-in pages; the CSRF guard of session.ts has already checked every POST. Rules
// live in src/domain/sites/ (owner-home.ts, restore-points.ts); there is no tool for restoring.
import type { Hono } from 'hono';
import { listActivity } from '../../domain/activity/list.js';
import { Refusal } from '../../kernel/errors.js';
import { outgoingMailOf } from '../../domain/mail/status.js';
import { ownerSites, ownerTimeZone, personTimeZone } from '../../domain/sites/owner-home.js';
import { deletedSitesOf } from '../../domain/sites/delete.js';
import { listRestorePoints, restoreSite } from '../../domain/sites/restore-points.js';
import { listApprovals } from '../../plans/approve.js';
import type { AppDeps } from '../deps.js';
import { HomePage, WelcomePage } from '../pages/home.js';
import { ConfirmRestorePage, RestorePointsPage } from '../pages/restore-points.js';
import { type WebEnv, requireUser } from '../session.js';

const RECENT = 8;

export function mountHome(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock } = deps.services;

  app.get('/', async (c) => {
    const user = c.get('user');
    if (!user) {
      return c.html(<WelcomePage csrf={c.get('csrf')} mcpUrl={`${deps.services.config.baseUrl}/api/mcp`} />);
    }
    const now = clock();
    const sites = await ownerSites(db, user.id);
    const approvals = await listApprovals(db, user.id, now);
    // Scoped in the domain to the websites this owner owns (R-WEB-4).
    const activity = (await listActivity(db, { viewerId: user.id }, now)).rows.slice(0, RECENT);
    const mail = await outgoingMailOf(db, user.id);
    const deleted = await deletedSitesOf(db, user.id);
    return c.html(
      <HomePage
        user={user}
        csrf={c.get('csrf')}
        sites={sites}
        deleted={deleted}
        done={c.req.query('done')}
        approvals={approvals}
        activity={activity}
        mail={mail}
        mailEnabled={Boolean(deps.services.mail?.enabled)}
        siteNames={
          new Map([
            ...sites.map((s) => [s.id, s.name] as const),
            // Activity of a site deleted in the last 30 days still names it.
            ...deleted.map((s) => [s.id, `${s.name} (deleted)`] as const),
          ])
        }
        timeZone={personTimeZone(sites)}
      />,
    );
  });

  const BASE = '/dashboard/sites/:websiteId/restore-points';
  app.use('/dashboard/sites/*', requireUser());

  app.get(BASE, async (c) => {
    const { site, points } = await listRestorePoints(db, c.get('user')!.id, c.req.param('websiteId'));
    return c.html(
      <RestorePointsPage
        user={c.get('user')!}
        csrf={c.get('csrf')}
        site={site}
        points={points}
        timeZone={await ownerTimeZone(db, c.get('user')!.id)}
        restored={c.req.query('done') === 'restored'}
      />,
    );
  });

  app.get(`${BASE}/:pointId`, async (c) => {
    const { site, points } = await listRestorePoints(db, c.get('user')!.id, c.req.param('websiteId'));
    const point = points.find((p) => p.id === c.req.param('pointId'));
    if (!point) throw new Refusal('not_found', 'There is no such restore point for this website.');
    return c.html(
      <ConfirmRestorePage
        user={c.get('user')!}
        csrf={c.get('csrf')}
        site={site}
        point={point}
        timeZone={await ownerTimeZone(db, c.get('user')!.id)}
      />,
    );
  });

  app.post(`${BASE}/:pointId/restore`, async (c) => {
    const websiteId = c.req.param('websiteId');
    await restoreSite(db, c.get('user')!.id, websiteId, c.req.param('pointId'), clock());
    return c.redirect(`/dashboard/sites/${encodeURIComponent(websiteId)}/restore-points?done=restored`, 303);
  });
}
