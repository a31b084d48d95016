// Developers settings (R-SURF-2, R-ACT-1, R-WEB-1): connections (name, reach, scopes, display prefix,
// client kind, created, last used), create with reach and scopes, the token shown once with a copy
// button and client snippets, revoke, delivery tokens, and the last 90 days of Activity.
import { raw } from 'hono/html';
import type { ConnectionRow } from '../../auth/connections.js';
import type { DeliveryTokenRow } from '../../auth/delivery.js';
import type { OwnedWebsite } from '../../auth/owner.js';
import type { activity } from '../../db/schema.js';
import { OUTCOMES } from '../../domain/activity/list.js';
import { DEFAULT_SCOPES, SCOPES } from '../../kernel/scopes.js';
import type { SessionUser } from '../session.js';
import { ScopeBoxes, SiteAndReach } from './grant-fields.js';
import { CsrfField, Layout } from './layout.js';
import { Time } from './time.js';

export type DevelopersProps = {
  user: SessionUser;
  csrf: string;
  sites: OwnedWebsite[];
  connections: ConnectionRow[];
  deliveryTokens: DeliveryTokenRow[];
  activity: { rows: Array<typeof activity.$inferSelect>; next: number | null };
  filter: { connectionId?: string; outcome?: string };
  /** A token just created: shown this once. */
  created?: {
    kind: 'connection' | 'delivery';
    token: string;
    snippets: Array<{ client: string; json: string }>;
  };
  message?: { kind: 'ok' | 'error'; text: string };
  /** The person's time zone (personTimeZone): the same as on their home page. */
  timeZone: string;
};

const whenIn = (tz: string) => (d: Date | null) => (d ? <Time at={d} tz={tz} /> : '—');

// Phone widths: tables become stacked cards (layout.tsx `table.rt`), filters wrap. Cells wrap between
// words only: `overflow-wrap:anywhere` would let the table squeeze a column to a few letters and
// break "Revoke" or a tool name mid-word; a word too long for any column scrolls inside its card.
const CSS = `
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}.filters label{flex:1 1 9rem;margin:0}
details.revoke summary{display:inline-block;cursor:pointer;padding:.4rem .8rem;border:1px solid #b00020;border-radius:8px;color:#b00020;background:#fff}
details.revoke[open] summary{margin-bottom:.4rem}details.revoke p{margin:.25rem 0;font-size:.9rem}
button.danger{background:#b00020;border-color:#b00020}#new-token pre{white-space:pre-wrap;overflow-wrap:anywhere}
td{overflow-wrap:break-word}td code,details.revoke summary{white-space:nowrap}
.card:has(>table.rt){overflow-x:auto}
`;

const COPY_SCRIPT = `document.addEventListener('click',async(e)=>{const b=e.target.closest('[data-copy]');if(!b)return;
const t=document.getElementById(b.dataset.copy).textContent;await navigator.clipboard.writeText(t);b.textContent='Copied';});`;

export function DevelopersPage(p: DevelopersProps) {
  const when = whenIn(p.timeZone);
  const siteName = new Map(p.sites.map((s) => [s.id, s.name]));
  return (
    <Layout title="Developers" user={p.user} csrf={p.csrf} css={CSS}>
      <h1>Developers</h1>
      {p.message ? (
        <p class={p.message.kind} role="status" id="message">
          {p.message.text}
        </p>
      ) : null}
      {p.sites.length === 0 ? (
        <div class="card">
          <p class="error">Only a website owner can manage connections.</p>
        </div>
      ) : null}
      {p.created ? <CreatedToken created={p.created} /> : null}
      <div class="card">
        <h2>Connections</h2>
        <table id="connections" class="rt">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Reach</th>
              <th scope="col">Scopes</th>
              <th scope="col">Token</th>
              <th scope="col">Client</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="sr">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.connections.map((c) => (
              <tr data-connection={c.id}>
                <td data-label="Name">
                  {c.name}
                  {c.oauthEmail ? <small class="muted"> signed in as {c.oauthEmail}</small> : null}
                </td>
                <td data-label="Reach">
                  {c.reach === 'workspace'
                    ? 'Whole workspace'
                    : (siteName.get(c.websiteId) ?? 'This website')}
                </td>
                <td data-label="Scopes">{c.scopes.join(', ')}</td>
                <td data-label="Token">
                  <code>{c.tokenPrefix ? `${c.tokenPrefix}…` : '—'}</code>
                </td>
                <td data-label="Client">{c.clientKind}</td>
                <td data-label="Created">{when(c.createdAt)}</td>
                <td data-label="Last used">{when(c.lastUsedAt)}</td>
                <td>
                  <RevokeCell
                    what="connection"
                    name={c.name}
                    revoked={Boolean(c.revokedAt)}
                    action={`/settings/advanced/developers/connections/${c.id}/revoke`}
                    csrf={p.csrf}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {p.sites.length > 0 ? (
        <div class="card">
          <h2>New connection</h2>
          <form method="post" action="/settings/advanced/developers/connections">
            <CsrfField csrf={p.csrf} />
            <label>
              Name
              <input name="name" required maxlength={80} placeholder="My assistant" />
            </label>
            <SiteAndReach sites={p.sites} />
            <ScopeBoxes offered={SCOPES} checked={DEFAULT_SCOPES} />
            <button type="submit">Create connection</button>
          </form>
        </div>
      ) : null}
      {p.sites.length > 0 ? <Delivery {...p} siteName={siteName} /> : null}
      <ActivityCard {...p} />
      <script>{raw(COPY_SCRIPT)}</script>
    </Layout>
  );
}

function CreatedToken(props: { created: NonNullable<DevelopersProps['created']> }) {
  return (
    <div class="card" id="new-token">
      <h2>{props.created.kind === 'delivery' ? 'Your delivery token' : 'Your new token'}</h2>
      <p>Copy it now: it is shown this once. A lost token needs a new connection.</p>
      <pre id="token-value">{props.created.token}</pre>
      <button type="button" data-copy="token-value">
        Copy token
      </button>
      {props.created.snippets.map((s, i) => (
        <details>
          <summary>{s.client}</summary>
          <pre id={`snippet-${i}`}>{s.json}</pre>
          <button type="button" class="secondary" data-copy={`snippet-${i}`}>
            Copy
          </button>
        </details>
      ))}
    </div>
  );
}

function Delivery(p: DevelopersProps & { siteName: Map<string, string> }) {
  const when = whenIn(p.timeZone);
  return (
    <div class="card">
      <h2>Delivery tokens (read-only published content)</h2>
      <p class="muted">
        For a website front end: <code>GET /v1/content/site</code> and{' '}
        <code>GET /v1/content/pages/:slug</code>. They cannot write and are refused by the MCP endpoint.
      </p>
      <table class="rt">
        <thead>
          <tr>
            <th scope="col">Website</th>
            <th scope="col">Token</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span class="sr">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.deliveryTokens.map((t) => (
            <tr data-delivery={t.id}>
              <td data-label="Website">{p.siteName.get(t.websiteId)}</td>
              <td data-label="Token">
                <code>{t.tokenPrefix}…</code>
              </td>
              <td data-label="Created">{when(t.createdAt)}</td>
              <td>
                <RevokeCell
                  what="delivery token"
                  name={t.tokenPrefix}
                  revoked={Boolean(t.revokedAt)}
                  action={`/settings/advanced/developers/delivery/${t.id}/revoke`}
                  csrf={p.csrf}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="post" action="/settings/advanced/developers/delivery">
        <CsrfField csrf={p.csrf} />
        <SiteAndReachless sites={p.sites} />
        <button type="submit">Create delivery token</button>
      </form>
    </div>
  );
}

function SiteAndReachless(props: { sites: OwnedWebsite[] }) {
  return (
    <label>
      Website
      <select name="websiteId">
        {props.sites.map((s) => (
          <option value={s.id}>{s.name}</option>
        ))}
      </select>
    </label>
  );
}

function ActivityCard(p: DevelopersProps) {
  const when = whenIn(p.timeZone);
  const names = new Map(p.connections.map((c) => [c.id, c.name]));
  const qs = (extra: Record<string, string | number | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...p.filter, ...extra }))
      if (v !== undefined && v !== '') q.set(k, String(v));
    return `/settings/advanced/developers?${q.toString()}`;
  };
  return (
    <div class="card">
      <h2>Activity (last 90 days)</h2>
      <form method="get" action="/settings/advanced/developers" class="filters">
        <label>
          Connection
          <select name="connectionId">
            <option value="">All</option>
            {p.connections.map((c) => (
              <option value={c.id} selected={c.id === p.filter.connectionId}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Outcome
          <select name="outcome">
            <option value="">All</option>
            {OUTCOMES.map((o) => (
              <option value={o} selected={o === p.filter.outcome}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <table id="activity" class="rt">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Connection</th>
            <th scope="col">Tool</th>
            <th scope="col">Outcome</th>
            <th scope="col">Code</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          {p.activity.rows.map((a) => (
            <tr data-outcome={a.outcome}>
              <td data-label="When">{when(a.createdAt)}</td>
              <td data-label="Connection">{(a.connectionId && names.get(a.connectionId)) ?? ''}</td>
              <td data-label="Tool">{a.tool}</td>
              <td data-label="Outcome">{a.outcome}</td>
              <td data-label="Code">{a.code ?? ''}</td>
              <td data-label="What happened">{a.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.activity.rows.length === 0 ? <p class="muted">Nothing yet.</p> : null}
      {p.activity.next ? (
        <a href={qs({ before: p.activity.next })} id="activity-next">
          Older
        </a>
      ) : null}
    </div>
  );
}

/**
 * "Revoked", or the revoke form (CSRF-guarded) for a connection or delivery token behind a
 * confirmation step that says what revoking does (no script needed).
 */
function RevokeCell(props: { revoked: boolean; action: string; csrf: string; what: string; name: string }) {
  if (props.revoked) return <span class="muted">Revoked</span>;
  return (
    <details class="revoke">
      <summary>Revoke…</summary>
      <form method="post" action={props.action}>
        <CsrfField csrf={props.csrf} />
        <p>
          Revoke the {props.what} “{props.name}”? Anything using its token stops working at once. This cannot
          be undone.
        </p>
        <button type="submit" class="danger">
          Yes, revoke
        </button>
      </form>
    </details>
  );
}
