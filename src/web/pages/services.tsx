// The console's services page: every service of the site, drafts (an assistant's create_service makes
// only drafts) and published ones, with Publish and Unpublish. A published service with a duration has
// a booking page on the live site; every published one is offered to visitors' assistants.
import type { ServiceStatus } from '../../domain/commerce/catalogue.js';
import { ConfirmActions, Flash } from './confirm.js';
import { type ConsoleBase, ConsoleFrame, consolePath } from './console.js';
import { DataTable } from './table.js';

export type ServiceItem = {
  serviceId: string;
  name: string;
  description: string;
  durationMinutes: number | null;
  price: string | null;
  status: string;
};

const DONE: Record<string, string> = {
  published:
    "Published. Visitors can see it on the live site (and ask to book it, when it has a duration); visitors' assistants are offered it too.",
  unpublished: 'Back to a draft. It is no longer offered to visitors or their assistants.',
};

const STATUS: Record<string, string> = { public: 'Published', draft: 'Draft' };

export function ServicesPage(p: ConsoleBase & { services: ServiceItem[]; done?: string }) {
  const base = consolePath(p.siteId);
  const toggle = (s: ServiceItem): { to: ServiceStatus; label: string } =>
    s.status === 'public' ? { to: 'draft', label: 'Unpublish' } : { to: 'public', label: 'Publish' };
  return (
    <ConsoleFrame
      {...p}
      title={`Services · ${p.siteName}`}
      heading={`Services of ${p.siteName}`}
      current="services"
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <div class="card" id="services">
        <p class="muted">
          Your assistants can add services as drafts; only you publish them. A published service with a
          duration gets a booking page on the live site.
        </p>
        <DataTable
          rows={p.services}
          empty="No service yet. Ask your assistant to create one; it appears here as a draft."
          rowAttrs={(s) => ({ 'data-service': s.serviceId, 'data-status': s.status })}
          columns={[
            {
              label: 'Service',
              class: 'msg',
              cell: (s) => (
                <>
                  <strong>{s.name}</strong>
                  {s.description ? <div class="muted">{s.description}</div> : null}
                </>
              ),
            },
            { label: 'Duration', cell: (s) => (s.durationMinutes ? `${s.durationMinutes} min` : '—') },
            { label: 'Price', cell: (s) => s.price ?? '—' },
            { label: 'Status', cell: (s) => STATUS[s.status] ?? s.status },
            {
              label: 'Action',
              action: true,
              cell: (s) => (
                <ConfirmActions
                  csrf={p.csrf}
                  action={`${base}/services/${encodeURIComponent(s.serviceId)}/${toggle(s).to === 'public' ? 'publish' : 'unpublish'}`}
                  hidden={{ status: s.status }}
                  button={{
                    id: `${toggle(s).to === 'public' ? 'publish' : 'unpublish'}-${s.serviceId}`,
                    class: toggle(s).to === 'public' ? undefined : 'secondary',
                    label: (
                      <>
                        {toggle(s).label}
                        <span class="sr"> {s.name}</span>
                      </>
                    ),
                  }}
                />
              ),
            },
          ]}
        />
      </div>
    </ConsoleFrame>
  );
}
