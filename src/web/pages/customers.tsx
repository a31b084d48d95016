// The console's customers page: the site's leads, bookings and contacts, and erasing one person's
// personal data by email address, behind a confirmation that says what will happen. Everything a
// visitor wrote is rendered as text by hono/jsx (escaped), never as markup or a live link.
import { plural } from '../../kernel/plural.js';
import type { CustomerKind, CustomerPage, CustomerRow } from '../../domain/crm/customers.js';
import { CONSOLE_CSS, type ConsoleBase, ConsoleFrame, consolePath } from './console.js';
import { ConfirmStep, Flash } from './confirm.js';
import { CsrfField } from './layout.js';
import { type Column, DataTable, WRAP_CSS, Wrap } from './table.js';
import { Time } from './time.js';

type Base = ConsoleBase;

const DONE: Record<string, string> = {
  updated: 'Saved.',
  unchanged: 'Nothing was changed: the form held what was already saved.',
};

const TITLES: Record<CustomerRow['kind'], string> = {
  lead: 'Leads',
  booking: 'Bookings',
  contact: 'Contacts',
};
const TEXT_LABEL: Record<CustomerRow['kind'], string> = {
  lead: 'Message',
  booking: 'Message',
  contact: 'Company',
};
const WHEN_LABEL: Record<CustomerRow['kind'], string> = {
  lead: 'Received',
  booking: 'Starts',
  contact: 'Added',
};

const SOURCE: Record<string, string> = {
  form: 'The website form',
  visitor_assistant: "A visitor's AI assistant",
};
const sourceText = (src: string) => SOURCE[src] ?? src;

/** The edit page of a lead or contact. */
const editPath = (siteId: string, r: { kind: string; id: string }) =>
  `${consolePath(siteId)}/customers/${r.kind}/${encodeURIComponent(r.id)}`;

/** The customers page at these lists' cursors (each list pages on its own), at one list's table. */
function pagePath(siteId: string, at: Partial<Record<CustomerKind, string | null>>, anchor: string) {
  const q = new URLSearchParams();
  for (const [kind, cursor] of Object.entries(at)) if (cursor) q.set(kind, cursor);
  const query = q.toString();
  return `${consolePath(siteId)}/customers${query ? `?${query}` : ''}#${anchor}`;
}

function Pager(p: { kind: CustomerKind; siteId: string; pages: Record<CustomerKind, CustomerPage> }) {
  const froms = Object.fromEntries(Object.entries(p.pages).map(([k, v]) => [k, v.from])) as Record<
    CustomerKind,
    string | null
  >;
  const here = p.pages[p.kind];
  if (!here.from && !here.nextCursor) return null;
  const to = (cursor: string | null) => pagePath(p.siteId, { ...froms, [p.kind]: cursor }, `${p.kind}s`);
  return (
    <nav class="actions pager" aria-label={`More ${TITLES[p.kind].toLowerCase()}`}>
      {here.from ? <a href={to(null)}>Newest {TITLES[p.kind].toLowerCase()}</a> : null}
      {here.nextCursor ? (
        <a href={to(here.nextCursor)} id={`older-${p.kind}s`}>
          Older {TITLES[p.kind].toLowerCase()} →
        </a>
      ) : null}
    </nav>
  );
}

function Rows(p: {
  kind: CustomerRow['kind'];
  rows: CustomerRow[];
  tz: string;
  siteId: string;
  pages: Record<CustomerKind, CustomerPage>;
}) {
  const columns: Column<CustomerRow>[] = [
    {
      label: 'Name',
      cell: (r) => (r.name || r.email ? <Wrap text={r.name ?? ''} /> : <span class="erased">Erased</span>),
    },
    { label: 'Email', cell: (r) => (r.email ? <Wrap text={r.email} /> : '—') },
    { label: 'Phone', cell: (r) => r.phone ?? '—' },
    {
      label: TEXT_LABEL[p.kind],
      class: 'msg',
      cell: (r) => (
        <>
          {r.message ? <Wrap text={r.message} /> : null}
          {r.note ? (
            <div class="muted">
              Note: <Wrap text={r.note} />
            </div>
          ) : null}
        </>
      ),
    },
    ...(p.kind === 'contact'
      ? []
      : [{ label: 'Source', cell: (r: CustomerRow) => (r.source ? sourceText(r.source) : '—') }]),
    {
      label: 'Status',
      cell: (r) => (
        <>
          {r.status}
          {r.handled ? <div class="muted">Handled</div> : null}
          {r.followUpAt ? (
            <div class="muted">
              Follow up: <Time at={r.followUpAt} tz={p.tz} />
            </div>
          ) : null}
        </>
      ),
    },
    { label: WHEN_LABEL[p.kind], cell: (r) => <Time at={r.at} tz={p.tz} /> },
  ];
  if (p.kind !== 'booking') {
    columns.push({
      label: 'Action',
      action: true,
      cell: (r) => (
        <a href={editPath(p.siteId, r)}>
          Edit
          <span class="sr">
            {' '}
            the {p.kind} of {r.name || 'an erased person'}
          </span>
          …
        </a>
      ),
    });
  }
  return (
    <div class="card" id={`${p.kind}s`}>
      <h2 style="margin-top:0">{TITLES[p.kind]}</h2>
      {p.kind === 'booking' ? (
        <p>
          <a href={`${consolePath(p.siteId)}/bookings`}>
            Confirm, move or cancel bookings on the Bookings page
          </a>
        </p>
      ) : null}
      <DataTable
        rows={p.rows}
        empty="None yet."
        rowAttrs={(r) => ({ 'data-record': r.id })}
        columns={columns}
        wrap
      />
      <Pager kind={p.kind} siteId={p.siteId} pages={p.pages} />
    </div>
  );
}

export function CustomersPage(
  p: Base & {
    customers: Record<CustomerKind, CustomerPage>;
    erased?: { leads: number; bookings: number; contacts: number } | null;
    done?: string;
  },
) {
  const base = consolePath(p.siteId);
  return (
    <ConsoleFrame
      {...p}
      title={`Customers · ${p.siteName}`}
      heading={`Customers of ${p.siteName}`}
      current="customers"
      css={WRAP_CSS}
      flash={
        p.done && DONE[p.done] ? (
          <Flash messages={DONE} done={p.done} />
        ) : p.erased ? (
          <p class="ok" role="status" id="done">
            Erased. {plural(p.erased.leads, 'lead')}, {plural(p.erased.bookings, 'booking')} and{' '}
            {plural(p.erased.contacts, 'contact')} no longer hold that person's data.
          </p>
        ) : null
      }
    >
      <Rows kind="lead" rows={p.customers.lead.rows} tz={p.timeZone} siteId={p.siteId} pages={p.customers} />
      <Rows
        kind="booking"
        rows={p.customers.booking.rows}
        tz={p.timeZone}
        siteId={p.siteId}
        pages={p.customers}
      />
      <Rows
        kind="contact"
        rows={p.customers.contact.rows}
        tz={p.timeZone}
        siteId={p.siteId}
        pages={p.customers}
      />
      <div class="card danger" id="erase">
        <h2 style="margin-top:0">Erase a person's data</h2>
        <p>
          When someone asks you to erase their data, enter their email address. You will see what it touches
          before anything happens.
        </p>
        <form method="post" action={`${base}/customers/erase/review`}>
          <CsrfField csrf={p.csrf} />
          <label>
            Their email address
            <input type="email" name="email" autocomplete="off" required maxlength={254} />
          </label>
          <button type="submit" id="review-erase">
            Review the erasure…
          </button>
        </form>
      </div>
    </ConsoleFrame>
  );
}

export function ConfirmErasePage(
  p: Base & { preview: { email: string; leads: number; bookings: number; contacts: number } },
) {
  const base = consolePath(p.siteId);
  const total = p.preview.leads + p.preview.bookings + p.preview.contacts;
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title="Erase a person's data?"
      css={CONSOLE_CSS}
      back={{ href: `${base}/customers`, label: 'Customers' }}
      heading={`Erase the data of ${p.preview.email}?`}
      danger
      action={`${base}/customers/erase`}
      hidden={{ email: p.preview.email }}
      button={{ id: 'confirm-erase', label: 'Erase personal data' }}
    >
      <p>
        On {p.siteName}: {plural(p.preview.leads, 'lead')}, {plural(p.preview.bookings, 'booking')} and{' '}
        {plural(p.preview.contacts, 'contact')} with this address lose the name, email address, phone number,
        message and notes. They stay as anonymous records, so your counts still add up.
      </p>
      <ul>
        <li>Email to this address that has not been sent yet is cancelled; stored copies are emptied.</li>
        <li>
          Draft invoices and quotes addressed to them lose the recipient. Sent ones are kept: you must keep
          them for your bookkeeping.
        </li>
        <li>Your assistants can no longer see the address. This cannot be undone.</li>
      </ul>
      {total === 0 ? <p id="none">No lead, booking or contact on this site has this address.</p> : null}
    </ConfirmStep>
  );
}

export function EditCustomerPage(
  p: Base & {
    row: CustomerRow & { kind: 'lead' | 'contact' };
    statuses: readonly string[];
    followUp: string;
  },
) {
  const r = p.row;
  const back = `${consolePath(p.siteId)}/customers`;
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title={`Edit the ${r.kind}`}
      css={CONSOLE_CSS}
      back={{ href: back, label: 'Customers' }}
      heading={`The ${r.kind} of ${r.name || 'an erased person'}`}
      action={editPath(p.siteId, r)}
      hidden={{ shown: r.updatedAt.toISOString() }}
      button={{ id: 'save-customer', label: 'Save' }}
      fields={
        <>
          <label>
            Status
            <select name="status">
              {p.statuses.map((st) => (
                <option value={st} selected={st === r.status}>
                  {st}
                </option>
              ))}
            </select>
          </label>
          <label style="display:flex;gap:.5rem;align-items:center">
            <input type="checkbox" name="handled" value="1" checked={r.handled} style="width:auto" />
            Handled
          </label>
          <label>
            Note (only you and your assistants see it)
            <textarea name="note" rows={4} maxlength={2000}>
              {r.note ?? ''}
            </textarea>
          </label>
          <label>
            Follow up on ({p.timeZone})
            <input type="date" name="followUp" value={p.followUp} />
          </label>
        </>
      }
    >
      <dl>
        <dt>Email</dt>
        <dd>{r.email ?? '—'}</dd>
        <dt>Phone</dt>
        <dd>{r.phone ?? '—'}</dd>
        {r.source ? (
          <>
            <dt>Source</dt>
            <dd>{sourceText(r.source)}</dd>
          </>
        ) : null}
        <dt>{TEXT_LABEL[r.kind]}</dt>
        <dd class="msg">{r.message || '—'}</dd>
        <dt>{WHEN_LABEL[r.kind]}</dt>
        <dd>
          <Time at={r.at} tz={p.timeZone} />
        </dd>
      </dl>
    </ConfirmStep>
  );
}
