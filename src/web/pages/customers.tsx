// The console's customers page: the site's leads, bookings and contacts, and erasing one person's
// personal data by email address, behind a confirmation that says what will happen. Everything a
// visitor wrote is rendered as text by hono/jsx (escaped), never as markup or a live link.
import type { CustomerRow } from '../../domain/crm/customers.js';
import type { SessionUser } from '../session.js';
import { ConsoleNav, consolePath } from './console.js';
import { CsrfField, Layout } from './layout.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string; siteId: string; siteName: string; timeZone: string };

const CSS = `
h1,p,li{overflow-wrap:anywhere}nav.sub{display:flex;flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0 1rem}
.msg{white-space:pre-wrap;overflow-wrap:anywhere}.erased{color:#595959;font-style:italic}
.danger{border-color:#e8b4bc}.danger button{background:#b00020;border-color:#b00020}
`;

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
      {p.rows.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <table class="rt">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Phone</th>
              <th scope="col">{TEXT_LABEL[p.kind]}</th>
              <th scope="col">Status</th>
              <th scope="col">{WHEN_LABEL[p.kind]}</th>
            </tr>
          </thead>
          <tbody>
            {p.rows.map((r) => (
              <tr data-record={r.id}>
                <td data-label="Name">{r.name || r.email ? r.name : <span class="erased">Erased</span>}</td>
                <td data-label="Email">{r.email ?? '—'}</td>
                <td data-label="Phone">{r.phone ?? '—'}</td>
                <td data-label={TEXT_LABEL[p.kind]} class="msg">
                  {r.message}
                  {r.note ? <div class="muted">Note: {r.note}</div> : null}
                </td>
                <td data-label="Status">{r.status}</td>
                <td data-label={WHEN_LABEL[p.kind]}>
                  <Time at={r.at} tz={p.tz} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
    <Layout title={`Customers · ${p.siteName}`} user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href="/">← Your websites</a>
      </p>
      <h1>Customers of {p.siteName}</h1>
      <ConsoleNav id={p.siteId} />
      {p.erased ? (
        <p class="ok" role="status" id="done">
          Erased. {p.erased.leads} lead(s), {p.erased.bookings} booking(s) and {p.erased.contacts} contact(s)
          no longer hold that person's data.
        </p>
      ) : null}
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
    </Layout>
  );
}

export function ConfirmErasePage(
  p: Base & { preview: { email: string; leads: number; bookings: number; contacts: number } },
) {
  const base = consolePath(p.siteId);
  const total = p.preview.leads + p.preview.bookings + p.preview.contacts;
  return (
    <Layout title="Erase a person's data?" user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href={`${base}/customers`}>← Customers</a>
      </p>
      <div class="card danger">
        <h1>Erase the data of {p.preview.email}?</h1>
        <p>
          On {p.siteName}: {p.preview.leads} lead(s), {p.preview.bookings} booking(s) and {p.preview.contacts}{' '}
          contact(s) with this address lose the name, email address, phone number, message and notes. They
          stay as anonymous records, so your counts still add up.
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
        <div class="actions">
          <form method="post" action={`${base}/customers/erase`}>
            <CsrfField csrf={p.csrf} />
            <input type="hidden" name="email" value={p.preview.email} />
            <button type="submit" id="confirm-erase">
              Erase personal data
            </button>
          </form>
          <a class="btn secondary" href={`${base}/customers`}>
            Cancel
          </a>
        </div>
      </div>
    </Layout>
  );
}
