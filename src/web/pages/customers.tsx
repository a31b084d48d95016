// The console's customers page: the site's leads, bookings and contacts, and erasing one person's
// personal data by email address, behind a confirmation that says what will happen. Everything a
// visitor wrote is rendered as text by hono/jsx (escaped), never as markup or a live link.
import type { CustomerRow } from '../../domain/crm/customers.js';
import type { SessionUser } from '../session.js';
import { CONSOLE_CSS, ConsoleFrame, consolePath } from './console.js';
import { ConfirmStep } from './confirm.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string; siteId: string; siteName: string; timeZone: string };

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

function Rows(p: { kind: CustomerRow['kind']; rows: CustomerRow[]; tz: string }) {
  return (
    <div class="card" id={`${p.kind}s`}>
      <h2 style="margin-top:0">{TITLES[p.kind]}</h2>
      <DataTable
        rows={p.rows}
        empty="None yet."
        rowAttrs={(r) => ({ 'data-record': r.id })}
        columns={[
          { label: 'Name', cell: (r) => (r.name || r.email ? r.name : <span class="erased">Erased</span>) },
          { label: 'Email', cell: (r) => r.email ?? '—' },
          { label: 'Phone', cell: (r) => r.phone ?? '—' },
          {
            label: TEXT_LABEL[p.kind],
            class: 'msg',
            cell: (r) => (
              <>
                {r.message}
                {r.note ? <div class="muted">Note: {r.note}</div> : null}
              </>
            ),
          },
          { label: 'Status', cell: (r) => r.status },
          { label: WHEN_LABEL[p.kind], cell: (r) => <Time at={r.at} tz={p.tz} /> },
        ]}
      />
    </div>
  );
}

export function CustomersPage(
  p: Base & {
    customers: Record<CustomerRow['kind'], CustomerRow[]>;
    erased?: { leads: number; bookings: number; contacts: number } | null;
  },
) {
  const base = consolePath(p.siteId);
  return (
    <ConsoleFrame
      user={p.user}
      csrf={p.csrf}
      siteId={p.siteId}
      title={`Customers · ${p.siteName}`}
      heading={`Customers of ${p.siteName}`}
      current="customers"
      flash={
        p.erased ? (
          <p class="ok" role="status" id="done">
            Erased. {p.erased.leads} lead(s), {p.erased.bookings} booking(s) and {p.erased.contacts}{' '}
            contact(s) no longer hold that person's data.
          </p>
        ) : null
      }
    >
      <Rows kind="lead" rows={p.customers.lead} tz={p.timeZone} />
      <Rows kind="booking" rows={p.customers.booking} tz={p.timeZone} />
      <Rows kind="contact" rows={p.customers.contact} tz={p.timeZone} />
      <div class="card danger" id="erase">
        <h2 style="margin-top:0">Erase a person's data</h2>
        <p>
          When someone asks you to erase their data, enter their email address. You will see what it touches
          before anything happens.
        </p>
        <form method="get" action={`${base}/customers/erase`}>
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
        On {p.siteName}: {p.preview.leads} lead(s), {p.preview.bookings} booking(s) and {p.preview.contacts}{' '}
        contact(s) with this address lose the name, email address, phone number, message and notes. They stay
        as anonymous records, so your counts still add up.
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
