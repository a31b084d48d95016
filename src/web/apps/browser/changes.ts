// The draft changes app (list_draft_changes): the review the owner's approval page shows, drawn on the
// server by the same component (src/web/apps/views.tsx): changed sections with the changed words
// marked, new and removed pages, placeholder text still in the draft.
import { badge, count, drawApp, h, heading, viewOf } from './dom.js';
import { fullFrame } from './frame.js';

export type ChangesView = { changed: boolean; html: string };
type ChangesData = { published: boolean; changes: Array<{ description: string }>; placeholders: unknown[] };

/** The drawn review, or nothing when the draft matches the live site. */
export function changesPanel(view: ChangesView | null): HTMLElement | null {
  return view?.changed ? fullFrame(view.html, 'What publishing would change') : null;
}

export function main(): void {
  drawApp<ChangesData>('sitegate-draft-changes', (d, result) => {
    const n = d.changes.length;
    const facts = [
      n ? `${count(n, 'change')} not live yet ` : 'The draft matches the live site ',
      d.published ? null : badge('The site is not live', 'new'),
      d.placeholders.length ? badge(`${d.placeholders.length} placeholder text`, 'changed') : null,
    ];
    // Without the drawn review (a host that drops `_meta`), the answer's own list.
    const list = h('ul', { class: 'plain' }, ...d.changes.map((c) => h('li', {}, c.description)));
    const next = 'Publishing needs the owner’s approval; ask your assistant to prepare it.';
    return [
      heading('Draft changes', facts),
      changesPanel(viewOf<ChangesView>(result)) ?? (n ? list : null),
      n ? h('p', { class: 'muted' }, next) : null,
    ];
  });
}
