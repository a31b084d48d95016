// /dashboard/connect (R-PAIR-1): the owner enters a device user code, sees every
// requested scope (each can be unticked), picks the reach and approves or declines; the same page
// binds a signed-in OAuth client to a new connection.
import type { PendingSignIn } from '../../auth/oauth/binding.js';
import type { OwnedWebsite } from '../../auth/owner.js';
import type { PairingRow } from '../../auth/pairing.js';
import { DEFAULT_SCOPES, SCOPES, type Scope, isScope } from '../../kernel/scopes.js';
import type { SessionUser } from '../session.js';
import { ScopeBoxes, SiteAndReach } from './grant-fields.js';
import { CsrfField, Layout } from './layout.js';
import { Time } from './time.js';

export type ConnectProps = {
  user: SessionUser;
  csrf: string;
  sites: OwnedWebsite[];
  code?: string;
  pairing?: PairingRow | null;
  /** A pending OAuth sign-in found by the connect code its client showed. */
  signIn?: PendingSignIn | null;
  pending: PendingSignIn[];
  message?: { kind: 'ok' | 'error'; text: string };
  /** The person's time zone (personTimeZone): the same as on their home page. */
  timeZone: string;
};

// Client ids can be long URLs or random strings: they wrap anywhere rather than widen the card.
const CSS = `
.client-id,[data-pending-client] code,#signin-form code{overflow-wrap:anywhere;word-break:break-word}
.pending-actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.pending-actions form{margin:0}
`;

export function ConnectPage(p: ConnectProps) {
  const owner = p.sites.length > 0;
  return (
    <Layout title="Connect a tool" user={p.user} csrf={p.csrf} css={CSS}>
      <h1>Connect a tool</h1>
      {p.message ? <p class={p.message.kind}>{p.message.text}</p> : null}
      {!owner ? (
        <div class="card">
          <p class="error">
            Only a website owner can connect tools. Ask the owner of the website to approve it.
          </p>
        </div>
      ) : null}
      <div class="card">
        <h2>Enter a code</h2>
        <p class="muted">
          The code a command-line tool shows, or the one an assistant signed in with OAuth shows.
        </p>
        <form method="get" action="/dashboard/connect">
          <label>
            Code
            <input name="code" value={p.code ?? ''} placeholder="ABCD-EFGH" autocomplete="off" />
          </label>
          <button type="submit">Look up</button>
        </form>
        {p.code && !p.pairing && !p.signIn ? (
          <p class="error">No pending request with this code. It may have expired.</p>
        ) : null}
        {p.pairing && owner ? <PairingForm {...p} pairing={p.pairing} /> : null}
        {p.signIn && owner ? <SignInForm {...p} signIn={p.signIn} /> : null}
      </div>
      {owner ? <OAuthSection {...p} /> : null}
    </Layout>
  );
}

function PairingForm(p: ConnectProps & { pairing: PairingRow }) {
  const requested = p.pairing.scopesRequested.filter(isScope);
  return (
    <form method="post" action="/dashboard/connect/pairing" id="pairing-form">
      <CsrfField csrf={p.csrf} />
      <input type="hidden" name="code" value={p.pairing.userCode} />
      <p>
        <strong>{p.pairing.clientName}</strong> asks for the scopes below. Untick any you do not want to give.
      </p>
      <ScopeBoxes offered={requested} checked={requested} />
      <SiteAndReach sites={p.sites} />
      <button type="submit" name="decision" value="approve">
        Approve
      </button>{' '}
      <button type="submit" name="decision" value="decline" class="secondary">
        Decline
      </button>
    </form>
  );
}

/** A client by its registered name, its id only as a detail (R-AUTH-5). */
function ClientName(p: { s: PendingSignIn }) {
  return p.s.clientName !== p.s.clientId ? (
    <span>
      <strong>{p.s.clientName}</strong> <small class="muted client-id">(client id {p.s.clientId})</small>
    </span>
  ) : (
    <code class="client-id">{p.s.clientId}</code>
  );
}

function SignInForm(p: ConnectProps & { signIn: PendingSignIn }) {
  return (
    <form method="post" action="/dashboard/connect/oauth" id="signin-form">
      <CsrfField csrf={p.csrf} />
      <input type="hidden" name="code" value={p.signIn.code} />
      <p>
        The assistant <ClientName s={p.signIn} /> signed in as{' '}
        {p.signIn.email ? <strong>{p.signIn.email}</strong> : <code>{p.signIn.subject}</code>} at{' '}
        <code>{p.signIn.issuer}</code>. Choose what it may do.
      </p>
      <ScopeBoxes offered={SCOPES} checked={DEFAULT_SCOPES as Scope[]} />
      <SiteAndReach sites={p.sites} />
      <button type="submit">Connect this assistant</button>
    </form>
  );
}

function OAuthSection(p: ConnectProps) {
  // The sign-in the code above already shows is not offered a second time below.
  const pending = p.pending.filter((x) => x.id !== p.signIn?.id);
  const form = (clientId?: string) => (
    <form method="post" action="/dashboard/connect/oauth">
      <CsrfField csrf={p.csrf} />
      {clientId ? (
        <input type="hidden" name="clientId" value={clientId} />
      ) : (
        <label>
          OAuth client id
          <input name="clientId" required autocomplete="off" />
        </label>
      )}
      <ScopeBoxes offered={SCOPES} checked={DEFAULT_SCOPES as Scope[]} />
      <SiteAndReach sites={p.sites} />
      <button type="submit">Connect this client</button>
    </form>
  );
  return (
    <div class="card">
      <h2>{p.signIn ? 'Other assistants signed in with OAuth' : 'Assistants signed in with OAuth'}</h2>
      {pending.length === 0 ? (
        <p class="muted">
          {p.signIn
            ? 'No other assistant is waiting.'
            : 'No assistant is waiting. Sign in from your assistant first, or enter its client id.'}
        </p>
      ) : (
        pending.map((s) => (
          <div class="card" data-pending-client={s.clientId}>
            <p>
              <ClientName s={s} /> signed in as you{s.email ? ` (${s.email})` : ''} at{' '}
              <Time at={s.createdAt} tz={p.timeZone} />.
            </p>
            {form(s.clientId)}
            <form method="post" action={`/dashboard/connect/oauth/${s.id}/dismiss`} class="pending-actions">
              <CsrfField csrf={p.csrf} />
              <button type="submit" class="secondary">
                Dismiss
              </button>
              <small class="muted">Not yours, or abandoned? Dismiss it; nothing is connected.</small>
            </form>
          </div>
        ))
      )}
      <details>
        <summary>Connect a client by its id</summary>
        {form()}
      </details>
    </div>
  );
}
