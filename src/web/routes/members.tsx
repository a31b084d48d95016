// The console's members page: members and pending invitations; remove a member, revoke an
// invitation. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import { membersOf, removeMember, revokeInvitation } from '../../domain/access/members.js';
import { notFound } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmRemovePage, MembersPage } from '../pages/members.js';
import type { WebEnv } from '../session.js';
import { consoleView, ownerAction } from './owner-action.js';

const BASE = '/dashboard/sites/:websiteId';

export function mountMembers(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(`${BASE}/members`, async (c) => {
    const view = await consoleView(c, deps, 'members.read', membersOf);
    return c.html(<MembersPage {...view} done={c.req.query('done')} />);
  });

  app.get(`${BASE}/members/:userId/remove`, async (c) => {
    const view = await consoleView(c, deps, 'members.read', membersOf);
    const me = c.get('user')!.id;
    const member = view.members.find((m) => m.userId === c.req.param('userId') && m.userId !== me);
    if (!member) throw notFound('member');
    return c.html(<ConfirmRemovePage {...view} member={member} />);
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
