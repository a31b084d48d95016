// The console's members page: members and pending invitations; remove a member, revoke an
// invitation. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { asPerson } from '../../domain/as-person.js';
import { membersOf, removeMember, revokeInvitation } from '../../domain/access/members.js';
import { timeZoneOf } from '../../domain/crm/booking-request.js';
import { notFound } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmRemovePage, MembersPage } from '../pages/members.js';
import type { WebEnv } from '../session.js';
import { ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId';

export function mountMembers(app: Hono<WebEnv>, deps: AppDeps): void {
  const { services } = deps;
  const load = (userId: string, websiteId: string) =>
    asPerson(services, userId, 'members.read', websiteId, async (ctx, site) => ({
      site,
      ...(await membersOf(ctx)),
    }));

  app.get(`${BASE}/members`, async (c) => {
    const user = c.get('user')!;
    const { site, members, invitations } = await load(user.id, c.req.param('websiteId'));
    return c.html(
      <MembersPage
        user={user}
        csrf={c.get('csrf')}
        siteId={site.id}
        siteName={site.name}
        timeZone={timeZoneOf(site.config)}
        members={members}
        invitations={invitations}
        done={c.req.query('done')}
      />,
    );
  });

  app.get(`${BASE}/members/:userId/remove`, async (c) => {
    const user = c.get('user')!;
    const { site, members } = await load(user.id, c.req.param('websiteId'));
    const member = members.find((m) => m.userId === c.req.param('userId') && m.userId !== user.id);
    if (!member) throw notFound('member');
    return c.html(
      <ConfirmRemovePage
        user={user}
        csrf={c.get('csrf')}
        siteId={site.id}
        siteName={site.name}
        timeZone={timeZoneOf(site.config)}
        member={member}
      />,
    );
  });

  const back = (id: string) => ({ href: `${consolePath(id)}/members`, label: 'Back to the members' });
  ownerAction(app, deps, {
    path: `${BASE}/members/:userId/remove`,
    action: 'members.remove',
    input: (_form, params) => params.userId!,
    run: removeMember,
    done: (id) => `${consolePath(id)}/members?done=removed`,
    back,
  });

  ownerAction(app, deps, {
    path: `${BASE}/invitations/:invitationId/revoke`,
    action: 'invitations.revoke',
    input: (_form, params) => params.invitationId!,
    run: revokeInvitation,
    done: (id) => `${consolePath(id)}/members?done=revoked`,
    back,
  });
}
