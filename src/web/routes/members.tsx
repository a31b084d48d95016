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

  app.post(`${BASE}/members/:userId/remove`, async (c) => {
    const id = c.req.param('websiteId');
    await asPerson(services, c.get('user')!.id, 'members.remove', id, (ctx) =>
      removeMember(ctx, c.req.param('userId')),
    );
    return c.redirect(`${consolePath(id)}/members?done=removed`, 303);
  });

  app.post(`${BASE}/invitations/:invitationId/revoke`, async (c) => {
    const id = c.req.param('websiteId');
    await asPerson(services, c.get('user')!.id, 'invitations.revoke', id, (ctx) =>
      revokeInvitation(ctx, c.req.param('invitationId')),
    );
    return c.redirect(`${consolePath(id)}/members?done=revoked`, 303);
  });
}
