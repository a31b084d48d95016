// The console's members page: who has access to the website and the pending invitations, with Remove
// (behind a confirmation) and Revoke. Never the last owner, never yourself.
import type { Member, PendingInvitation } from '../../domain/access/members.js';
import type { SessionUser } from '../session.js';
import { CONSOLE_CSS, ConsoleFrame, consolePath } from './console.js';
import { ConfirmActions, ConfirmStep, Flash } from './confirm.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string; siteId: string; siteName: string; timeZone: string };

const DONE: Record<string, string> = {
  removed:
    'Removed. They lost access at once: the site, its previews, approvals and any connection they made.',
  revoked: 'Revoked. The invitation link no longer works.',
};

export function MembersPage(
  p: Base & { members: Member[]; invitations: PendingInvitation[]; done?: string },
) {
  const base = consolePath(p.siteId);
  return (
    <ConsoleFrame
      {...p}
      title={`Members · ${p.siteName}`}
      heading={`Members of ${p.siteName}`}
      current="members"
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <div class="card" id="members">
        <h2 style="margin-top:0">Members</h2>
        <DataTable
          rows={p.members}
          rowAttrs={(m) => ({ 'data-member': m.userId })}
          columns={[
            { label: 'Name', cell: (m) => m.name },
            { label: 'Email', cell: (m) => m.email },
            { label: 'Role', cell: (m) => m.role },
            { label: 'Since', cell: (m) => <Time at={m.since} tz={p.timeZone} /> },
            {
              label: 'Action',
              action: true,
              cell: (m) =>
                m.userId === p.user.id ? (
                  <span class="muted">You</span>
                ) : (
                  <a href={`${base}/members/${encodeURIComponent(m.userId)}/remove`}>
                    Remove<span class="sr"> {m.name}</span>…
                  </a>
                ),
            },
          ]}
        />
      </div>
      <div class="card" id="invitations">
        <h2 style="margin-top:0">Pending invitations</h2>
        <DataTable
          rows={p.invitations}
          empty="No invitation is waiting. Your assistant can prepare one for your approval."
          rowAttrs={(i) => ({ 'data-invitation': i.id })}
          columns={[
            { label: 'Email', cell: (i) => i.email },
            { label: 'Level', cell: (i) => i.level },
            { label: 'Expires', cell: (i) => <Time at={i.expiresAt} tz={p.timeZone} /> },
            {
              label: 'Action',
              action: true,
              cell: (i) => (
                <ConfirmActions
                  csrf={p.csrf}
                  action={`${base}/invitations/${encodeURIComponent(i.id)}/revoke`}
                  button={{
                    id: `revoke-${i.id}`,
                    class: 'secondary',
                    label: (
                      <>
                        Revoke<span class="sr"> the invitation of {i.email}</span>
                      </>
                    ),
                  }}
                />
              ),
            },
          ]}
        />
      </div>
    </ConsoleFrame>
  );
}

export function ConfirmRemovePage(p: Base & { member: Member }) {
  const base = consolePath(p.siteId);
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title="Remove a member?"
      css={CONSOLE_CSS}
      back={{ href: `${base}/members`, label: 'Members' }}
      heading={`Remove ${p.member.name} (${p.member.role})?`}
      danger
      action={`${base}/members/${encodeURIComponent(p.member.userId)}/remove`}
      button={{ id: 'confirm-remove', label: 'Remove' }}
    >
      <p>
        {p.member.email} loses access to {p.siteName} at their next click: the draft preview, approvals, and
        every connection they created stop working for this site. Nothing they made is deleted.
      </p>
    </ConfirmStep>
  );
}
