// The owner's approval pages (R-PLAN-3, R-WEB-1): the pending list and one plan showing exactly what
// will happen, with Approve / Decline forms carrying the CSRF token.
import { raw } from 'hono/html';
import type { ApprovalListItem, PlanView } from '../../plans/approve.js';
import type { PlanHistoryItem, PlanOutcome } from '../../plans/history.js';
import type { SessionUser } from '../session.js';
import { CsrfField, Layout } from './layout.js';
import { REVIEW_CSS, Review } from './plan-review.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

const KIND_LABELS: Record<string, string> = {
  publish: 'Publish the site',
  unpublish: 'Take the site offline',
  publish_product: 'Publish a product',
  search_visibility: 'Search visibility',
  grant_access: 'Invite someone',
  send_document: 'Send an invoice or quote',
  create_company: 'Create a company',
};

/** What a carried-out plan did, in the past tense. */
const DONE: Record<string, string> = {
  publish: 'The draft went live.',
  unpublish: 'The site was taken offline.',
  publish_product: 'The product became public.',
  search_visibility: 'The search visibility setting was changed.',
  grant_access: 'The invitation was created and its email queued.',
  send_document: 'The document was marked sent and its email queued.',
  create_company: 'The company was created.',
};

/** How long the list waits before it reloads itself while something waits on it. */
const APPROVALS_REFRESH_SECONDS = 15;

const OUTCOME: Record<PlanOutcome, string> = {
  approved: 'Approved: waiting for your assistant to carry it out',
  declined: 'Declined',
  expired: 'Expired: nothing happened',
  carried_out: 'Carried out',
};

export function ApprovalsPage(props: {
  user: SessionUser;
  csrf: string;
  items: ApprovalListItem[];
  history: PlanHistoryItem[];
}) {
  // While a plan waits (for the owner, or approved for the assistant), the list keeps itself current.
  const live = props.items.length > 0 || props.history.some((h) => h.outcome === 'approved');
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
          <DataTable
            rows={props.items}
            columns={[
              {
                label: 'Action',
                cell: (i) => <a href={`/approvals/${i.planId}`}>{KIND_LABELS[i.kind] ?? i.kind}</a>,
              },
              { label: 'Website', cell: (i) => i.siteName },
              {
                label: 'Summary',
                cell: (i) => (
                  <>
                    {i.summary}
                    <div class="muted">
                      Through “{i.connectionName}”, <Time at={i.createdAt} tz={i.timeZone} />
                    </div>
                    {i.canApprove ? null : (
                      <div class="muted">Only the connection's creator can approve.</div>
                    )}
                  </>
                ),
              },
              { label: 'Expires', cell: (i) => <Time at={i.expiresAt} tz={i.timeZone} /> },
            ]}
          />
        </div>
      )}
      {live ? <AutoRefresh seconds={APPROVALS_REFRESH_SECONDS} /> : null}
      <PlanHistory items={props.history} />
    </Layout>
  );
}

/**
 * Reloads the list while a plan waits, unless the owner unticks the box (WCAG 2.2.1: a time limit the
 * user can turn off; a meta refresh cannot be). The script is our own constant, not data.
 */
function AutoRefresh(props: { seconds: number }) {
  const script = `(()=>{const b=document.getElementById('auto-refresh');setInterval(()=>{if(b&&b.checked&&!document.hidden)location.reload()},${props.seconds * 1000})})();`;
  return (
    <p class="muted">
      <label style="display:inline-flex;gap:.5rem;align-items:center;margin:0">
        <input type="checkbox" id="auto-refresh" checked style="width:auto" />
        Refresh this list every {props.seconds} seconds while a plan waits
      </label>
      <script>{raw(script)}</script>
    </p>
  );
}

/** Decided and expired plans, newest first: what became of each, when, and through which connection. */
function PlanHistory(props: { items: PlanHistoryItem[] }) {
  return (
    <div class="card" id="history">
      <h2 style="margin-top:0">Decided and expired</h2>
      <DataTable
        rows={props.items}
        empty="No plan has been decided yet. Plans are kept here for 7 days after they expire."
        rowAttrs={(h) => ({ 'data-plan': h.planId, 'data-outcome': h.outcome })}
        columns={[
          {
            label: 'Action',
            cell: (h) =>
              h.outcome === 'expired' ? (
                (KIND_LABELS[h.kind] ?? h.kind)
              ) : (
                <a href={`/approvals/${h.planId}`}>{KIND_LABELS[h.kind] ?? h.kind}</a>
              ),
          },
          { label: 'Website', cell: (h) => h.siteName },
          {
            label: 'Summary',
            cell: (h) => (
              <>
                {h.summary}
                <div class="muted">
                  Through “{h.connectionName}”, <Time at={h.createdAt} tz={h.timeZone} />
                </div>
              </>
            ),
          },
          {
            label: 'What became of it',
            cell: (h) => (
              <>
                {OUTCOME[h.outcome]}
                {h.at ? (
                  <>
                    {' '}
                    (<Time at={h.at} tz={h.timeZone} />)
                  </>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

export function PlanPage(props: {
  user: SessionUser;
  csrf: string;
  view: PlanView;
  done?: string;
  mailServer?: boolean;
}) {
  const { view } = props;
  const plan = view.plan;
  const id = plan.id;
  const tz = view.timeZone;
  return (
    <Layout title="Review a plan" user={props.user} csrf={props.csrf} css={REVIEW_CSS}>
      <p>
        <a href="/approvals">← Approvals</a>
      </p>
      <div class="card">
        <p class="muted">
          {KIND_LABELS[plan.kind] ?? plan.kind} on <strong>{view.siteName}</strong>, prepared through “
          {view.connectionName}” at <Time at={plan.createdAt} tz={tz} />.
        </p>
        <Review review={view.review} tz={tz} planId={id} mailServer={props.mailServer} />
        <div id="status" role="status">
          <Outcome view={view} />
        </div>
        {view.revisionChanged ? (
          <p class="error">This changed since the plan was prepared, so it can no longer be approved.</p>
        ) : null}
        {view.cannotApprove && plan.status === 'pending' ? <p class="error">{view.cannotApprove}</p> : null}
        {plan.status === 'pending' ? (
          <div class="actions">
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

/** Where the plan stands, in words: what happened and when (R-WEB-5). */
function Outcome(props: { view: PlanView }) {
  const { plan, timeZone: tz } = props.view;
  if (plan.status === 'redeemed' && plan.redeemedAt) {
    return (
      <p class="ok">
        <strong>Done.</strong> {DONE[plan.kind] ?? 'It was carried out.'} Your assistant carried it out at{' '}
        <Time at={plan.redeemedAt} tz={tz} />
        {plan.approvedAt ? (
          <>
            , after you approved it at <Time at={plan.approvedAt} tz={tz} />
          </>
        ) : null}
        .{typeof plan.result?.mail === 'string' ? ` ${plan.result.mail}` : null}
      </p>
    );
  }
  if (plan.status === 'approved') {
    return (
      <p class="ok">
        <strong>Approved</strong>
        {plan.approvedAt ? (
          <>
            {' '}
            at <Time at={plan.approvedAt} tz={tz} />
          </>
        ) : null}
        . Nothing has happened yet: your assistant can now carry it out, until{' '}
        <Time at={plan.expiresAt} tz={tz} />. Afterwards this page says when it was done.
      </p>
    );
  }
  if (plan.status === 'declined') {
    return (
      <p class="ok">
        <strong>Declined.</strong> Nothing will happen.
      </p>
    );
  }
  return (
    <p>
      <strong>Waiting for your decision.</strong> Approve or decline before{' '}
      <Time at={plan.expiresAt} tz={tz} />; after that the plan expires and nothing happens.
    </p>
  );
}
