// Restore points of one website (R-SITE-4): the list, and a confirmation page whose form carries
// the CSRF token. Restoring replaces the draft only; the live site changes when the owner publishes.
import type { OwnedSite, RestorePointItem } from '../../domain/sites/restore-points.js';
import type { SessionUser } from '../session.js';
import { CsrfField, Layout } from './layout.js';
import { Time } from './time.js';

const REASONS: Record<string, string> = {
  'before import merge': 'Taken before an assistant merged an imported site into this one',
  'before a restore': 'Taken before you restored an earlier point (restoring this undoes that restore)',
};
const reasonText = (r: string) => REASONS[r] ?? r;

type Base = { user: SessionUser; csrf: string; site: OwnedSite; timeZone: string };

export function RestorePointsPage(p: Base & { points: RestorePointItem[]; restored?: boolean }) {
  const base = `/dashboard/sites/${p.site.id}/restore-points`;
  return (
    <Layout title={`Restore points · ${p.site.name}`} user={p.user} csrf={p.csrf}>
      <p>
        <a href="/">← Your websites</a>
      </p>
      <h1>Restore points of {p.site.name}</h1>
      {p.restored ? (
        <p class="ok" role="status" id="restored">
          Restored. The draft is back as it was at that point; the draft it replaced was kept as a new restore
          point. Visitors see the change only after you publish.
        </p>
      ) : null}
      <div class="card">
        <p class="muted">
          A restore point is a copy of the draft (pages and sections) taken before a big change. Restoring one
          replaces the current draft; the live site stays as it is until you publish.
        </p>
        {p.points.length === 0 ? (
          <p>There are no restore points for this website yet.</p>
        ) : (
          <table class="rt" id="points">
            <thead>
              <tr>
                <th scope="col">Taken</th>
                <th scope="col">Why</th>
                <th scope="col">Contents</th>
                <th scope="col">
                  <span class="sr">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.points.map((pt) => (
                <tr data-point={pt.id}>
                  <td data-label="Taken">
                    <Time at={pt.createdAt} tz={p.timeZone} />
                  </td>
                  <td data-label="Why">{reasonText(pt.reason)}</td>
                  <td data-label="Contents">
                    {pt.pages} page{pt.pages === 1 ? '' : 's'}, {pt.sections} section
                    {pt.sections === 1 ? '' : 's'}
                  </td>
                  <td>
                    <a href={`${base}/${pt.id}`}>Restore…</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Layout>
  );
}

export function ConfirmRestorePage(p: Base & { point: RestorePointItem }) {
  const base = `/dashboard/sites/${p.site.id}/restore-points`;
  return (
    <Layout title="Restore the draft?" user={p.user} csrf={p.csrf}>
      <p>
        <a href={base}>← Restore points</a>
      </p>
      <div class="card">
        <h1>Restore the draft of {p.site.name}?</h1>
        <p>
          The draft goes back to how it was at <Time at={p.point.createdAt} tz={p.timeZone} /> (
          {p.point.pages} page{p.point.pages === 1 ? '' : 's'}, {p.point.sections} section
          {p.point.sections === 1 ? '' : 's'}). Edits made since then are replaced.
        </p>
        <p>
          The current draft is kept as a new restore point first, so you can undo this. The live site does not
          change until you publish.
        </p>
        <div class="actions">
          <form method="post" action={`${base}/${p.point.id}/restore`}>
            <CsrfField csrf={p.csrf} />
            <button type="submit" id="confirm-restore">
              Restore this point
            </button>
          </form>
          <a class="btn secondary" href={base}>
            Cancel
          </a>
        </div>
      </div>
    </Layout>
  );
}
