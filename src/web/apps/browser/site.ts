// The site overview app (get_site_overview): whether the site is live, its addresses, and its pages
// with where each stands (new, changed, live). A page's preview is one get_page call through the host,
// the only tool an app calls (docs/mcp-apps.md); it is drawn as the page preview app draws it.
import type { Host } from './bridge.js';
import { badge, count, drawApp, h, heading, linkButton, problem, viewOf } from './dom.js';
import { pagePreview } from './page.js';

type Overview = {
  websiteId: string;
  name: string;
  businessName: string;
  published: boolean;
  publishedAt: string | null;
  unpublishedChanges: number;
  domains: Array<{ hostname: string; status: string; primary: boolean }>;
  editorUrl: string;
  publicUrl: string | null;
};
type Listed = { title: string; path: string; kind: string };
type SiteView = {
  pages: Array<Listed & { pageId: string; status: 'new' | 'changed' | 'live'; sections: number }>;
  offline: Listed[];
};

const STATUS = { new: 'New', changed: 'Changed', live: 'Live' } as const;
const kindOf = (kind: string) => (kind === 'post' ? 'Blog post' : 'Page');

function pageTable(view: SiteView, websiteId: string, host: Host, panel: HTMLElement): HTMLElement {
  const rows = view.pages.map((p) => {
    const button = h('button', { type: 'button', 'data-page': p.pageId }, 'Preview');
    button.addEventListener('click', async () => {
      panel.replaceChildren(h('p', { class: 'muted' }, `Drawing ${p.title}…`));
      const result = await host.callServerTool('get_page', { pageId: p.pageId, websiteId }).catch(() => null);
      panel.replaceChildren(result ? pagePreview(result) : problem('The host could not call get_page.'));
    });
    return h(
      'tr',
      {},
      h(
        'td',
        {},
        h('strong', {}, p.title),
        h('br'),
        h('span', { class: 'muted' }, `${kindOf(p.kind)} · ${p.path}`),
      ),
      h('td', {}, badge(STATUS[p.status], p.status)),
      h('td', { class: 'num' }, String(p.sections)),
      h('td', {}, button),
    );
  });
  return h(
    'table',
    { class: 'pages' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Page'), h('th', {}, 'State'), h('th', {}, 'Sections'), h('th', {})),
    ),
    h('tbody', {}, ...rows),
  );
}

export function main(): void {
  drawApp<Overview>('sitegate-site-overview', (o, result, host) => {
    const view = viewOf<SiteView>(result);
    const since = o.publishedAt ? new Date(o.publishedAt).toLocaleDateString() : null;
    const primary = o.domains.find((d) => d.primary)?.hostname;
    const panel = h('div', { class: 'panel' });
    const n = o.unpublishedChanges;
    const facts = [
      `${o.businessName} `,
      o.published ? badge(since ? `Live since ${since}` : 'Live', 'live') : badge('Not live', 'new'),
      ' ',
      n ? badge(`${count(n, 'change')} not live yet`, 'changed') : null,
    ];
    const offline = view?.offline.map((p) => `${p.title} (${p.path})`).join(', ');
    return [
      heading(o.name, facts),
      primary ? h('p', { class: 'muted' }, `Address: ${primary}`) : null,
      view ? pageTable(view, o.websiteId, host, panel) : null,
      offline ? h('p', { class: 'muted' }, `Going offline when published: ${offline}`) : null,
      o.publicUrl ? linkButton('Open the live site', o.publicUrl, host.openLink) : null,
      panel,
    ];
  });
}
