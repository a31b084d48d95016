// Developers settings (SPEC §5, §8; DESIGN §5.5): connections (name, reach, scopes, display prefix,
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
};

const when = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') : '—');

const COPY_SCRIPT = `document.addEventListener('click',async(e)=>{const b=e.target.closest('[data-copy]');if(!b)return;
const t=document.getElementById(b.dataset.copy).textContent;await navigator.clipboard.writeText(t);b.textContent='Copied';});`;

export function DevelopersPage(p: DevelopersProps) {
  const siteName = new Map(p.sites.map((s) => [s.id, s.name]));
  return (
    <Layout title="Developers" user={p.user} csrf={p.csrf}>
      <h1>Developers</h1>
      {p.message ? <p class={p.message.kind}>{p.message.text}</p> : null}
      {p.sites.length === 0 ? (
        <div class="card">
          <p class="error">Only a website owner can manage connections.</p>
        </div>
      ) : null}
      {p.created ? <CreatedToken created={p.created} /> : null}
      <div class="card">
        <h2>Connections</h2>
        <table id="connections">
          <thead>
            <tr>
              <th>Name</th>
              <th>Reach</th>
              <th>Scopes</th>
              <th>Token</th>
              <th>Client</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {p.connections.map((c) => (
              <tr data-connection={c.id}>
                <td>
                  {c.name}
                  {c.oauthEmail ? <small class="muted"> signed in as {c.oauthEmail}</small> : null}
                </td>
                <td>
                  {c.reach === 'workspace'
                    ? 'Whole workspace'
                    : (siteName.get(c.websiteId) ?? 'This website')}
                </td>
                <td>{c.scopes.join(', ')}</td>
                <td>
                  <code>{c.tokenPrefix ? `${c.tokenPrefix}…` : '—'}</code>
                </td>
                <td>{c.clientKind}</td>
                <td>{when(c.createdAt)}</td>
                <td>{when(c.lastUsedAt)}</td>
                <td>
                  <RevokeCell
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
  return (
    <div class="card">
      <h2>Delivery tokens (read-only published content)</h2>
      <p class="muted">
        For a website front end: <code>GET /v1/content/site</code> and{' '}
        <code>GET /v1/content/pages/:slug</code>. They cannot write and are refused by the MCP endpoint.
      </p>
      <table>
        <tbody>
          {p.deliveryTokens.map((t) => (
            <tr data-delivery={t.id}>
              <td>{p.siteName.get(t.websiteId)}</td>
              <td>
                <code>{t.tokenPrefix}…</code>
              </td>
              <td>{when(t.createdAt)}</td>
              <td>
                <RevokeCell
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
      <form
        method="get"
        action="/settings/advanced/developers"
        style="display:flex;gap:.5rem;align-items:end"
      >
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
      <table id="activity">
        <tbody>
          {p.activity.rows.map((a) => (
            <tr data-outcome={a.outcome}>
              <td>{when(a.createdAt)}</td>
              <td>{(a.connectionId && names.get(a.connectionId)) ?? ''}</td>
              <td>{a.tool}</td>
              <td>{a.outcome}</td>
              <td>{a.code ?? ''}</td>
              <td>{a.summary}</td>
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

/** "Revoked", or the revoke form (CSRF-guarded) for a connection or delivery token. */
function RevokeCell(props: { revoked: boolean; action: string; csrf: string }) {
  if (props.revoked) return <span class="muted">Revoked</span>;
  return (
    <form method="post" action={props.action}>
      <CsrfField csrf={props.csrf} />
      <button type="submit" class="secondary">
        Revoke
      </button>
    </form>
  );
}
