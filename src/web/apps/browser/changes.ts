// The draft changes app (list_draft_changes): the review the owner's approval page shows, drawn on the
// server by the same component (src/web/apps/views.tsx): changed sections with the changed words
// marked, new and removed pages, placeholder text still in the draft.
import { startApp } from './bridge.js';
import { badge, dataOf, h, problem, show, viewOf } from './dom.js';
import { fullFrame } from './frame.js';

export type ChangesView = { changed: boolean; html: string };
type ChangesData = {
  published: boolean;
  summary: string;
  changes: Array<{ description: string }>;
  placeholders: unknown[];
};

/** The drawn review, or nothing when the draft matches the live site. */
export function changesPanel(view: ChangesView | null): HTMLElement | null {
  return view?.changed ? fullFrame(view.html, 'What publishing would change') : null;
}

export function main(): void {
  startApp({
    name: 'sitegate-draft-changes',
    onResult(result) {
      const got = dataOf<ChangesData>(result);
      if ('error' in got) return show(problem(got.error));
      const d = got.data;
      const view = viewOf<ChangesView>(result);
      const n = d.changes.length;
      const head = h(
        'header',
        { class: 'bar' },
        h(
          'div',
          {},
          h('h1', {}, 'Draft changes'),
          h(
            'p',
            { class: 'muted' },
            n ? `${n} change${n === 1 ? '' : 's'} not live yet` : 'The draft matches the live site',
            ' ',
            d.published ? null : badge('The site is not live', 'new'),
            d.placeholders.length ? badge(`${d.placeholders.length} placeholder text`, 'changed') : null,
          ),
        ),
      );
      // Without the drawn review (a host that drops `_meta`), the answer's own list.
      const list = h('ul', { class: 'plain' }, ...d.changes.map((c) => h('li', {}, c.description)));
      show(
        head,
        changesPanel(view) ?? (n ? list : null),
        n
          ? h(
              'p',
              { class: 'muted' },
              'Publishing needs the owner’s approval; ask your assistant to prepare it.',
            )
          : null,
      );
    },
  });
}
