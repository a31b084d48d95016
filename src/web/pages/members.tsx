// The console's members page: who has access to the website and the pending invitations, with Remove
// (behind a confirmation) and Revoke. Never the last owner, never yourself.
import type { Member, PendingInvitation } from '../../domain/access/members.js';
import type { SessionUser } from '../session.js';
import { ConsoleNav, consolePath } from './console.js';
import { CsrfField, Layout } from './layout.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string; siteId: string; siteName: string; timeZone: string };

const CSS = `
h1,p,li{overflow-wrap:anywhere}nav.sub{display:flex;flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0 1rem}
.danger button{background:#b00020;border-color:#b00020}
`;

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
    <Layout title={`Members · ${p.siteName}`} user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href="/">← Your websites</a>
      </p>
      <h1>Members of {p.siteName}</h1>
      <ConsoleNav id={p.siteId} />
      {p.done && DONE[p.done] ? (
        <p class="ok" role="status" id="done">
          {DONE[p.done]}
        </p>
      ) : null}
      <div class="card" id="members">
        <h2 style="margin-top:0">Members</h2>
        <table class="rt">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="sr">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.members.map((m) => (
              <tr data-member={m.userId}>
                <td data-label="Name">{m.name}</td>
                <td data-label="Email">{m.email}</td>
                <td data-label="Role">{m.role}</td>
                <td data-label="Since">
                  <Time at={m.since} tz={p.timeZone} />
                </td>
                <td>
                  {m.userId === p.user.id ? (
                    <span class="muted">You</span>
                  ) : (
                    <a href={`${base}/members/${encodeURIComponent(m.userId)}/remove`}>
                      Remove<span class="sr"> {m.name}</span>…
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="card" id="invitations">
        <h2 style="margin-top:0">Pending invitations</h2>
        {p.invitations.length === 0 ? (
          <p class="muted">No invitation is waiting. Your assistant can prepare one for your approval.</p>
        ) : (
          <table class="rt">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Level</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="sr">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.invitations.map((i) => (
                <tr data-invitation={i.id}>
                  <td data-label="Email">{i.email}</td>
                  <td data-label="Level">{i.level}</td>
                  <td data-label="Expires">
                    <Time at={i.expiresAt} tz={p.timeZone} />
                  </td>
                  <td>
                    <form
                      method="post"
                      action={`${base}/invitations/${encodeURIComponent(i.id)}/revoke`}
                      style="margin:0"
                    >
                      <CsrfField csrf={p.csrf} />
                      <button type="submit" class="secondary">
                        Revoke<span class="sr"> the invitation of {i.email}</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Layout>
  );
}

export function ConfirmRemovePage(p: Base & { member: Member }) {
  const base = consolePath(p.siteId);
  return (
    <Layout title="Remove a member?" user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href={`${base}/members`}>← Members</a>
      </p>
      <div class="card danger">
        <h1>
          Remove {p.member.name} ({p.member.role})?
        </h1>
        <p>
          {p.member.email} loses access to {p.siteName} at their next click: the draft preview, approvals, and
          every connection they created stop working for this site. Nothing they made is deleted.
        </p>
        <div class="actions">
          <form method="post" action={`${base}/members/${encodeURIComponent(p.member.userId)}/remove`}>
            <CsrfField csrf={p.csrf} />
            <button type="submit" id="confirm-remove">
              Remove
            </button>
          </form>
          <a class="btn secondary" href={`${base}/members`}>
            Cancel
          </a>
        </div>
      </div>
    </Layout>
  );
}
