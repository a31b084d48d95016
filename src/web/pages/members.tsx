// The console's members page: who has access to the website and the pending invitations, with Remove
// (behind a confirmation), a level change between editor and viewer, Resend and Revoke, and a form to
// invite an address as editor or viewer. Never the last owner, never yourself, never owner by invitation.
import { INVITATION_DAYS } from '../../domain/access/invitations.js';
import type { Member, PendingInvitation } from '../../domain/access/members.js';
import type { SessionUser } from '../session.js';
import { CONSOLE_CSS, ConsoleFrame, consolePath } from './console.js';
import { ConfirmActions, ConfirmStep, Flash } from './confirm.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string; siteId: string; siteName: string; timeZone: string };

const CSS =
  '.rows-actions{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}.rows-actions form{margin:0}';

const DONE: Record<string, string> = {
  removed:
    'Removed. They lost access at once: the site, its previews, approvals and any connection they made.',
  revoked: 'Revoked. The invitation link no longer works.',
  level: 'Level changed. It holds at their next request.',
};
const MAIL: Record<string, string> = {
  sending: 'The email leaves now.',
  queued: 'The email is queued, but this server has no mail server configured (SMTP_URL): it has not left.',
};
for (const [mail, words] of Object.entries(MAIL)) {
  DONE[`invited.${mail}`] = `Invited. Access starts when they accept the link in the email. ${words}`;
  DONE[`resent.${mail}`] = `Resent with a new link; the earlier link no longer works. ${words}`;
}

const LEVELS = ['editor', 'viewer'] as const;

function LevelControl(p: { base: string; csrf: string; m: Member }) {
  const other = p.m.role === 'editor' ? 'viewer' : 'editor';
  return (
    <ConfirmActions
      csrf={p.csrf}
      action={`${p.base}/members/${encodeURIComponent(p.m.userId)}/level`}
      hidden={{ level: other, shown: p.m.role }}
      button={{
        id: `level-${p.m.userId}`,
        class: 'secondary',
        label: (
          <>
            Make {other}
            <span class="sr"> ({p.m.name})</span>
          </>
        ),
      }}
    />
  );
}

function InviteForm(p: { base: string; csrf: string }) {
  return (
    <div class="card" id="invite">
      <h2 style="margin-top:0">Invite someone</h2>
      <p class="muted">
        An editor may edit the draft; a viewer may only look. Publishing, inviting and deleting stay with you.
        The link in the email works for {INVITATION_DAYS} days.
      </p>
      <ConfirmActions
        csrf={p.csrf}
        action={`${p.base}/members/invite`}
        button={{ id: 'invite-submit', label: 'Send the invitation' }}
      >
        <label>
          Email address
          <input type="email" name="email" required maxlength={254} autocomplete="off" />
        </label>
        <label>
          Level
          <select name="level">
            {LEVELS.map((l) => (
              <option value={l}>{l}</option>
            ))}
          </select>
        </label>
      </ConfirmActions>
    </div>
  );
}

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
      css={CSS}
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
                  <div class="rows-actions">
                    {m.role === 'owner' ? null : <LevelControl base={base} csrf={p.csrf} m={m} />}
                    <a href={`${base}/members/${encodeURIComponent(m.userId)}/remove`}>
                      Remove<span class="sr"> {m.name}</span>…
                    </a>
                  </div>
                ),
            },
          ]}
        />
      </div>
      <div class="card" id="invitations">
        <h2 style="margin-top:0">Pending invitations</h2>
        <DataTable
          rows={p.invitations}
          empty="No invitation is waiting. Invite someone below, or let your assistant prepare one for your approval."
          rowAttrs={(i) => ({ 'data-invitation': i.id })}
          columns={[
            { label: 'Email', cell: (i) => i.email },
            { label: 'Level', cell: (i) => i.level },
            { label: 'Expires', cell: (i) => <Time at={i.expiresAt} tz={p.timeZone} /> },
            {
              label: 'Action',
              action: true,
              cell: (i) => (
                <div class="rows-actions">
                  {(['resend', 'revoke'] as const).map((act) => (
                    <ConfirmActions
                      csrf={p.csrf}
                      action={`${base}/invitations/${encodeURIComponent(i.id)}/${act}`}
                      button={{
                        id: `${act}-${i.id}`,
                        class: 'secondary',
                        label: (
                          <>
                            {act === 'resend' ? 'Resend' : 'Revoke'}
                            <span class="sr"> the invitation of {i.email}</span>
                          </>
                        ),
                      }}
                    />
                  ))}
                </div>
              ),
            },
          ]}
        />
      </div>
      <InviteForm base={base} csrf={p.csrf} />
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
