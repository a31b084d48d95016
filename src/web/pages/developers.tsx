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
import { DataTable } from './table.js';
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
        <DataTable
          id="connections"
          rows={p.connections}
          rowAttrs={(c) => ({ 'data-connection': c.id })}
          columns={[
            {
              label: 'Name',
              cell: (c) => (
                <>
                  {c.name}
                  {c.oauthEmail ? <small class="muted"> signed in as {c.oauthEmail}</small> : null}
                </>
              ),
            },
            {
              label: 'Reach',
              cell: (c) =>
                c.reach === 'workspace' ? 'Whole workspace' : (siteName.get(c.websiteId) ?? 'This website'),
            },
            { label: 'Scopes', cell: (c) => c.scopes.join(', ') },
            { label: 'Token', cell: (c) => <code>{c.tokenPrefix ? `${c.tokenPrefix}…` : '—'}</code> },
            { label: 'Client', cell: (c) => c.clientKind },
            { label: 'Created', cell: (c) => when(c.createdAt) },
            { label: 'Last used', cell: (c) => when(c.lastUsedAt) },
            {
              label: 'Revoke',
              action: true,
              cell: (c) => (
                <RevokeCell
                  what="connection"
                  name={c.name}
                  revoked={Boolean(c.revokedAt)}
                  action={`/settings/advanced/developers/connections/${c.id}/revoke`}
                  csrf={p.csrf}
                />
              ),
            },
          ]}
        />
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
      <DataTable
        rows={p.deliveryTokens}
        rowAttrs={(t) => ({ 'data-delivery': t.id })}
        columns={[
          { label: 'Website', cell: (t) => p.siteName.get(t.websiteId) },
          { label: 'Token', cell: (t) => <code>{t.tokenPrefix}…</code> },
          { label: 'Created', cell: (t) => when(t.createdAt) },
          {
            label: 'Revoke',
            action: true,
            cell: (t) => (
              <RevokeCell
                what="delivery token"
                name={t.tokenPrefix}
                revoked={Boolean(t.revokedAt)}
                action={`/settings/advanced/developers/delivery/${t.id}/revoke`}
                csrf={p.csrf}
              />
            ),
          },
        ]}
      />
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
      <DataTable
        id="activity"
        rows={p.activity.rows}
        rowAttrs={(a) => ({ 'data-outcome': a.outcome })}
        columns={[
          { label: 'When', cell: (a) => when(a.createdAt) },
          { label: 'Connection', cell: (a) => (a.connectionId && names.get(a.connectionId)) ?? '' },
          { label: 'Tool', cell: (a) => a.tool },
          { label: 'Outcome', cell: (a) => a.outcome },
          { label: 'Code', cell: (a) => a.code ?? '' },
          { label: 'What happened', cell: (a) => a.summary },
        ]}
      />
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
