// The plan app (prepare_publish; any prepare_* answer fits it): what the prepared plan will do, when it expires,
// and the way to the owner's approval page. It never approves or carries out anything (R-APP-3): its
// one action asks the host to open the approval page, where the owner, signed in, decides.
import { type ChangesView, changesPanel } from './changes.js';
import { badge, count, drawApp, h, heading, linkButton, viewOf } from './dom.js';

type Plan = { planId: string; kind: string; summary: string; expiresAt: string; approveUrl: string };

const TITLES: Record<string, string> = {
  publish: 'Publish the draft',
  unpublish: 'Take the site offline',
};

/** "in 4 minutes", counting down; "expired" once past. */
function countdown(expiresAt: string): HTMLElement {
  const out = h('span', {});
  const tick = () => {
    const left = Math.round((Date.parse(expiresAt) - Date.now()) / 60_000);
    out.textContent =
      left <= 0 ? 'expired: ask your assistant to prepare it again' : `in ${count(left, 'minute')}`;
  };
  tick();
  setInterval(tick, 15_000);
  return out;
}

export function main(): void {
  drawApp<Plan>('sitegate-plan', (p, result, host) => [
    heading(TITLES[p.kind] ?? 'Plan to approve', [badge('Waiting for the owner’s approval', 'changed')]),
    h('p', { class: 'summary' }, p.summary),
    linkButton('Open the approval page', p.approveUrl, host.openLink),
    h(
      'p',
      { class: 'muted' },
      'Only the owner approves, on that page, signed in; nothing happens until then. The plan expires ',
      countdown(p.expiresAt),
      '.',
    ),
    changesPanel(viewOf<ChangesView>(result)),
  ]);
}
