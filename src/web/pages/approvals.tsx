// The owner's approval pages (DESIGN §5.3, §5.5): the pending list and one plan showing exactly what
// will happen, with Approve / Decline forms carrying the CSRF token.
import type { ApprovalListItem, PlanView } from '../../plans/approve.js';
import type { PlanReview } from '../../plans/kinds/types.js';
import type { SessionUser } from '../session.js';
import { CsrfField, Layout } from './layout.js';

const KIND_LABELS: Record<string, string> = {
  publish: 'Publish the site',
  unpublish: 'Take the site offline',
  publish_product: 'Publish a product',
  search_visibility: 'Search visibility',
  grant_access: 'Invite someone',
  send_document: 'Send an invoice or quote',
  create_company: 'Create a company',
};

const time = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;

export function ApprovalsPage(props: { user: SessionUser; csrf: string; items: ApprovalListItem[] }) {
  return (
    <Layout title="Approvals" user={props.user} csrf={props.csrf}>
      <h1>Approvals</h1>
      <p class="muted">
        Your assistants never publish, invite, send or create companies on their own. Each plan waits here for
        you for 5 minutes.
      </p>
      {props.items.length === 0 ? (
        <div class="card">Nothing is waiting for your approval.</div>
      ) : (
        <div class="card">
          <table>
            <thead>
              <tr>
                <th>Action</th>
                <th>Website</th>
                <th>Summary</th>
                <th>Expires</th>
              </tr>
            </thead>
            <tbody>
              {props.items.map((i) => (
                <tr>
                  <td>
                    <a href={`/approvals/${i.planId}`}>{KIND_LABELS[i.kind] ?? i.kind}</a>
                  </td>
                  <td>{i.siteName}</td>
                  <td>
                    {i.summary}
                    {i.canApprove ? null : (
                      <div class="muted">Only the connection's creator can approve.</div>
                    )}
                  </td>
                  <td>{time(i.expiresAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}

function Review(props: { review: PlanReview }) {
  const r = props.review;
  return (
    <>
      <h2>{r.title}</h2>
      <table>
        <tbody>
          {r.facts.map((f) => (
            <tr>
              <th>{f.label}</th>
              <td>{f.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.list ? (
        <>
          <h3>{r.list.heading}</h3>
          {r.list.items.length ? (
            <ul id="changes">
              {r.list.items.map((i) => (
                <li>{i}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">{r.list.empty}</p>
          )}
        </>
      ) : null}
      {r.table ? (
        <table id="lines">
          <thead>
            <tr>
              {r.table.columns.map((c) => (
                <th>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.table.rows.map((row) => (
              <tr>
                {row.map((c) => (
                  <td>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
          {r.table.footer ? (
            <tfoot>
              <tr>
                {r.table.footer.map((c) => (
                  <th>{c}</th>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      ) : null}
    </>
  );
}

export function PlanPage(props: { user: SessionUser; csrf: string; view: PlanView; done?: string }) {
  const { view } = props;
  const id = view.plan.id;
  return (
    <Layout title="Review a plan" user={props.user} csrf={props.csrf}>
      <p>
        <a href="/approvals">← Approvals</a>
      </p>
      <div class="card">
        <p class="muted">
          {KIND_LABELS[view.plan.kind] ?? view.plan.kind} on <strong>{view.siteName}</strong>, prepared
          through “{view.connectionName}”. Expires at {time(view.plan.expiresAt)}.
        </p>
        <Review review={view.review} />
        <p id="status">
          Status: <strong>{view.plan.status}</strong>
        </p>
        {props.done === 'approved' ? (
          <p class="ok">Approved. Your assistant can now carry it out with confirm_pending_action.</p>
        ) : null}
        {props.done === 'declined' ? <p class="ok">Declined. Nothing will happen.</p> : null}
        {view.revisionChanged ? (
          <p class="error">This changed since the plan was prepared, so it can no longer be approved.</p>
        ) : null}
        {view.cannotApprove && view.plan.status === 'pending' ? (
          <p class="error">{view.cannotApprove}</p>
        ) : null}
        {view.plan.status === 'pending' ? (
          <div style="display:flex;gap:.5rem">
            {view.cannotApprove ? null : (
              <form method="post" action={`/approvals/${id}/approve`}>
                <CsrfField csrf={props.csrf} />
                <button type="submit" id="approve">
                  Approve
                </button>
              </form>
            )}
            <form method="post" action={`/approvals/${id}/decline`}>
              <CsrfField csrf={props.csrf} />
              <button type="submit" class="secondary" id="decline">
                Decline
              </button>
            </form>
          </div>
        ) : null}
      </div>
    </Layout>
  );
}

export function RefusalPage(props: { user: SessionUser | null; csrf: string; message: string }) {
  return (
    <Layout title="Not possible" user={props.user} csrf={props.csrf}>
      <div class="card">
        <p class="error">{props.message}</p>
        <p>
          <a href="/approvals">Back to approvals</a>
        </p>
      </div>
    </Layout>
  );
}
