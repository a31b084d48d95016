// The console's members page: members and pending invitations; invite an address, change a member
// between editor and viewer, remove a member, resend or revoke an invitation. Owner only, through the person gate (asPerson); the CSRF guard has checked every POST.
import type { Hono } from 'hono';
import {
  changeMemberLevel,
  inviteMember,
  membersOf,
  removeMember,
  resendInvitation,
  revokeInvitation,
} from '../../domain/access/members.js';
import { notFound } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { ConfirmRemovePage, MembersPage } from '../pages/members.js';
import type { WebEnv } from '../session.js';
import { consoleView, field, ownerAction } from './owner-action.js';

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

  ownerAction(app, deps, {
    path: `${BASE}/members/invite`,
    action: 'members.invite',
    input: (form) => ({ email: field(form, 'email', 320), level: field(form, 'level', 20) }),
    run: inviteMember,
    done: (id, r) => `${consolePath(id)}/members?done=invited.${r.mail}`,
    back,
  });

  ownerAction(app, deps, {
    path: `${BASE}/members/:userId/level`,
    action: 'members.change_level',
    input: (form, params) => ({
      userId: params.userId!,
      level: field(form, 'level', 20),
      shown: field(form, 'shown', 20),
    }),
    run: changeMemberLevel,
    done: (id) => `${consolePath(id)}/members?done=level`,
    back,
  });

  ownerAction(app, deps, {
    path: `${BASE}/invitations/:invitationId/resend`,
    action: 'invitations.resend',
    input: (_form, params) => params.invitationId!,
    run: resendInvitation,
    done: (id, r) => `${consolePath(id)}/members?done=resent.${r.mail}`,
    back,
  });
}
