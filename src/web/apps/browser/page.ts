// The page preview app (get_page): the draft page as visitors will see it, drawn by the site renderer
// on the server (src/web/apps/views.tsx), at phone or desktop width, changed sections marked.
import { type ToolResult, startApp } from './bridge.js';
import { badge, count, dataOf, h, heading, problem, show, viewOf } from './dom.js';
import { scaledFrame } from './frame.js';

type PageData = { title: string; slug: string; sections: Array<{ type: string; hidden: boolean }> };
type PageView = {
  title: string;
  path: string;
  status: 'new' | 'changed' | 'live';
  marked: string[];
  html: string;
};

const WIDTHS = { phone: 390, desktop: 1280 } as const;

function statusOf(view: PageView): HTMLElement {
  if (view.status === 'new') return badge('New: not on the live site yet', 'new');
  if (view.status === 'changed') {
    const n = view.marked.length;
    return badge(n ? `Changed: ${count(n, 'section')} marked` : 'Changed', 'changed');
  }
  return badge('Live as it is', 'live');
}

/** The preview of one get_page answer; the site overview app shows the same. */
export function pagePreview(result: ToolResult): HTMLElement {
  const got = dataOf<PageData>(result);
  if ('error' in got) return problem(got.error);
  const view = viewOf<PageView>(result);
  if (!view) {
    // The server drew no preview (a host that drops `_meta`): the page's outline from the answer.
    const items = got.data.sections.map((s) => h('li', {}, `${s.type}${s.hidden ? ' (hidden)' : ''}`));
    return h(
      'section',
      {},
      h('h1', {}, got.data.title),
      h('p', { class: 'muted' }, `/${got.data.slug} · no preview available`),
      h('ol', {}, ...items),
    );
  }
  const wide = document.documentElement.clientWidth >= 700;
  let width: keyof typeof WIDTHS = wide ? 'desktop' : 'phone';
  const holder = h('div', { class: 'preview' });
  const buttons = (Object.keys(WIDTHS) as Array<keyof typeof WIDTHS>).map((w) => {
    const b = h('button', { type: 'button', 'data-width': w }, w === 'phone' ? 'Phone' : 'Desktop');
    b.addEventListener('click', () => {
      width = w;
      draw();
    });
    return b;
  });
  const draw = () => {
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.width === width));
    const first = view.marked[0];
    const title = `${view.title}, ${width} preview`;
    holder.replaceChildren(scaledFrame(view.html, WIDTHS[width], title, first && `s-${first}`));
  };
  draw();
  const toggle = h('div', { class: 'toggle', role: 'group', 'aria-label': 'Preview width' }, ...buttons);
  return h(
    'section',
    {},
    heading(view.title, [h('code', {}, view.path), ' ', statusOf(view)], toggle),
    holder,
  );
}

export function main(): void {
  startApp({ name: 'sitegate-page-preview', onResult: (result) => show(pagePreview(result)) });
}
