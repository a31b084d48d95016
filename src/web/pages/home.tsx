// The owner's home (R-WEB-4): their websites with draft/live state and links, what waits for
// approval, recent Activity, and the way to Developers settings. Signed out: what Sitegate is.
import type { activity } from '../../db/schema.js';
import { MAIL_STATE, type OutgoingMail } from '../../domain/mail/status.js';
import type { HomeSite } from '../../domain/sites/owner-home.js';
import type { DeletedSite } from '../../domain/sites/delete.js';
import type { ApprovalListItem } from '../../plans/approve.js';
import type { SessionUser } from '../session.js';
import { ConfirmActions } from './confirm.js';
import { Layout } from './layout.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

export type HomeProps = {
  user: SessionUser;
  csrf: string;
  sites: HomeSite[];
  /** Sites the owner deleted that can still be restored. */
  deleted: DeletedSite[];
  done?: string;
  approvals: ApprovalListItem[];
  activity: Array<typeof activity.$inferSelect>;
  /** Outgoing email of the owned sites, in its real state (R-REL-2). */
  mail: OutgoingMail[];
  mailEnabled: boolean;
  siteNames: Map<string, string>;
  timeZone: string;
};

const CSS = `
.sites{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr))}
.site h2{margin:0 0 .25rem;font-size:1.2rem;overflow-wrap:anywhere}.site ul{padding-left:1.1rem;margin:.5rem 0}
.state{display:inline-block;font-size:.85rem;padding:.1rem .5rem;border-radius:999px;border:1px solid #bbb}
.state.live{background:#e5f6ea;border-color:#8fc9a0;color:#0b4d22}.state.draft{background:#fff3cd;border-color:#e6d28a;color:#5c4400}
.count{display:inline-block;min-width:1.6rem;text-align:center;border-radius:999px;background:#b00020;color:#fff;font-weight:700;padding:0 .4rem}
`;

export function HomePage(p: HomeProps) {
  return (
    <Layout title="Home" user={p.user} csrf={p.csrf} css={CSS}>
      <h1>Your websites</h1>
      {p.done === 'site_deleted' ? (
        <p class="ok" role="status" id="done">
          The site was deleted and is offline. You can restore it below for 30 days.
        </p>
      ) : null}
      <div class="card" id="pending">
        <h2 style="margin-top:0">
          Waiting for your approval{' '}
          {p.approvals.length ? <span class="count">{p.approvals.length}</span> : null}
        </h2>
        {p.approvals.length === 0 ? (
          <p class="muted">Nothing is waiting. Plans your assistants prepare appear here for 5 minutes.</p>
        ) : (
          <ul>
            {p.approvals.slice(0, 5).map((a) => (
              <li>
                <a href={`/approvals/${a.planId}`}>{a.summary}</a>{' '}
                <span class="muted">
                  (expires <Time at={a.expiresAt} tz={a.timeZone} />)
                </span>
              </li>
            ))}
          </ul>
        )}
        <a href="/approvals">All approvals</a>
      </div>
      {p.sites.length === 0 ? (
        <div class="card">You do not own a website yet. Websites you own appear here.</div>
      ) : (
        <div class="sites">
          {p.sites.map((s) => (
            <div class="card site" data-site={s.id}>
              <h2>{s.name}</h2>
              {s.publishedAt ? (
                <p>
                  <span class="state live">Published</span> last published{' '}
                  <Time at={s.publishedAt} tz={s.timeZone} />
                  {s.draftAhead ? (
                    <span class="muted">; the draft has changes that are not live yet</span>
                  ) : null}
                </p>
              ) : s.offline ? (
                <p>
                  <span class="state draft">Offline</span> taken offline; visitors see nothing until you
                  publish again
                </p>
              ) : (
                <p>
                  <span class="state draft">Draft only</span> not published yet
                </p>
              )}
              <ul>
                <li>
                  <a href={`/dashboard/sites/${s.id}`}>
                    Site console: pages, publishing, bookings, services, customers, members
                  </a>
                </li>
                <li>
                  <a href={`/editor/${s.id}/`}>Preview the draft</a>
                </li>
                {s.publishedAt ? (
                  <li>
                    <a href={`/sites/${s.id}/`}>Open the live site</a>
                    {s.primaryHost ? <span class="muted"> (also at {s.primaryHost})</span> : null}
                  </li>
                ) : null}
                <li>
                  <a href={`/dashboard/sites/${s.id}/restore-points`}>Restore points</a>
                </li>
              </ul>
            </div>
          ))}
        </div>
      )}
      {p.deleted.length ? <DeletedSitesCard {...p} /> : null}
      <div class="card">
        <h2 style="margin-top:0">Recent activity</h2>
        <DataTable
          id="recent-activity"
          rows={p.activity}
          empty="Nothing yet."
          columns={[
            { label: 'When', cell: (a) => <Time at={a.createdAt} tz={p.timeZone} /> },
            { label: 'Website', cell: (a) => (a.websiteId && p.siteNames.get(a.websiteId)) ?? '—' },
            { label: 'What', cell: (a) => a.summary },
            { label: 'Outcome', cell: (a) => a.outcome },
          ]}
        />
        <p>
          <a href="/settings/advanced/developers">Developers: connections, tokens and all Activity</a>
        </p>
      </div>
      <OutgoingMailCard {...p} />
    </Layout>
  );
}

function DeletedSitesCard(p: HomeProps) {
  return (
    <div class="card" id="deleted-sites">
      <h2 style="margin-top:0">Deleted sites</h2>
      <p class="muted">
        Offline and out of your assistants' reach. Restore one to get it back as it was (offline until you
        publish it); otherwise it is removed for good on the date shown.
      </p>
      <DataTable
        rows={p.deleted}
        rowAttrs={(d) => ({ 'data-deleted-site': d.id })}
        columns={[
          { label: 'Website', cell: (d) => d.name },
          { label: 'Deleted', cell: (d) => <Time at={d.deletedAt} tz={p.timeZone} /> },
          { label: 'Removed for good', cell: (d) => <Time at={d.purgeAt} tz={p.timeZone} /> },
          {
            label: 'Action',
            action: true,
            cell: (d) => (
              <ConfirmActions
                csrf={p.csrf}
                action={`/dashboard/sites/${d.id}/restore`}
                button={{
                  id: `restore-${d.id}`,
                  class: 'secondary',
                  label: (
                    <>
                      Restore<span class="sr"> {d.name}</span>
                    </>
                  ),
                }}
              />
            ),
          },
        ]}
      />
    </div>
  );
}

function OutgoingMailCard(p: HomeProps) {
  return (
    <div class="card" id="outgoing-mail">
      <h2 style="margin-top:0">Outgoing email</h2>
      {p.mailEnabled ? null : (
        <p>
          <strong>No mail server is configured (SMTP_URL): these messages have not left.</strong>
        </p>
      )}
      <DataTable
        rows={p.mail}
        empty="No email yet."
        columns={[
          { label: 'Website', cell: (m) => m.site },
          { label: 'Message', cell: (m) => m.subject },
          {
            label: 'State',
            cell: (m) => MAIL_STATE[m.status] ?? m.status,
            attrs: (m) => ({ 'data-mail-state': m.status }),
          },
          { label: 'Queued', cell: (m) => <Time at={m.createdAt} tz={p.timeZone} /> },
        ]}
      />
    </div>
  );
}

export function WelcomePage(props: { csrf: string; mcpUrl: string }) {
  return (
    <Layout title="Home" user={null} csrf={props.csrf}>
      <div class="card">
        <h1>Sitegate</h1>
        <p>
          The Model Context Protocol endpoint of your website: AI assistants work on your business with your
          authority.
        </p>
        <p>
          MCP URL: <code>{props.mcpUrl}</code>
        </p>
        <p>
          <a href="/login">Sign in</a> to see your websites, approvals and Activity.
        </p>
      </div>
    </Layout>
  );
}
