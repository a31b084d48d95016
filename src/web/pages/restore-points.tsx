// Restore points of one website (R-SITE-4): the list, and a confirmation page whose form carries
// the CSRF token. Restoring replaces the draft only; the live site changes when the owner publishes.
import { plural } from '../../kernel/plural.js';
import type { OwnedSite, RestorePointItem } from '../../domain/sites/restore-points.js';
import type { SessionUser } from '../session.js';
import { ConsoleFrame } from './console.js';
import { ConfirmStep, Flash } from './confirm.js';
import { DataTable } from './table.js';
import { Time } from './time.js';

const REASONS: Record<string, string> = {
  'before import merge': 'Taken before an assistant merged an imported site into this one',
  'before a restore': 'Taken before you restored an earlier point (restoring this undoes that restore)',
};
const reasonText = (r: string) => REASONS[r] ?? r;

type Base = { user: SessionUser; csrf: string; site: OwnedSite; timeZone: string };

const contents = (pt: RestorePointItem) => `${plural(pt.pages, 'page')}, ${plural(pt.sections, 'section')}`;

export function RestorePointsPage(p: Base & { points: RestorePointItem[]; restored?: boolean }) {
  const base = `/dashboard/sites/${p.site.id}/restore-points`;
  return (
    <ConsoleFrame
      user={p.user}
      csrf={p.csrf}
      siteId={p.site.id}
      title={`Restore points · ${p.site.name}`}
      heading={`Restore points of ${p.site.name}`}
      current="restore-points"
      flash={<Flash messages={DONE} done={p.restored ? 'restored' : undefined} id="restored" />}
    >
      <div class="card">
        <p class="muted">
          A restore point is a copy of the draft (pages and sections) taken before a big change. Restoring one
          replaces the current draft; the live site stays as it is until you publish.
        </p>
        <DataTable
          id="points"
          rows={p.points}
          empty="There are no restore points for this website yet."
          rowAttrs={(pt) => ({ 'data-point': pt.id })}
          columns={[
            { label: 'Taken', cell: (pt) => <Time at={pt.createdAt} tz={p.timeZone} /> },
            { label: 'Why', cell: (pt) => reasonText(pt.reason) },
            { label: 'Contents', cell: contents },
            { label: 'Action', action: true, cell: (pt) => <a href={`${base}/${pt.id}`}>Restore…</a> },
          ]}
        />
      </div>
    </ConsoleFrame>
  );
}

const DONE = {
  restored:
    'Restored. The draft is back as it was at that point; the draft it replaced was kept as a new restore point. Visitors see the change only after you publish.',
};

export function ConfirmRestorePage(p: Base & { point: RestorePointItem }) {
  const base = `/dashboard/sites/${p.site.id}/restore-points`;
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title="Restore the draft?"
      back={{ href: base, label: 'Restore points' }}
      heading={`Restore the draft of ${p.site.name}?`}
      action={`${base}/${p.point.id}/restore`}
      button={{ id: 'confirm-restore', label: 'Restore this point' }}
    >
      <p>
        The draft goes back to how it was at <Time at={p.point.createdAt} tz={p.timeZone} /> (
        {contents(p.point)}). Edits made since then are replaced.
      </p>
      <p>
        The current draft is kept as a new restore point first, so you can undo this. The live site does not
        change until you publish.
      </p>
    </ConfirmStep>
  );
}
