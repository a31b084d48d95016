// Which tools show which MCP App (R-APP-1), and what each app's answer carries besides the tool's own
// data. The apps themselves (the documents and the views behind them) are drawn by the web floor and
// handed in (src/web/apps/); this file only names them.
// tools/list at full scope has a fixed budget (docs/mcp-apps.md, "The listing budget"): every `_meta.ui`
// entry costs its bytes in every listing an app-capable client reads, so only the answers that are
// best seen carry an app, under short `ui://` addresses.

export type AppId = 'page' | 'changes' | 'site' | 'plan';

/** Where each app document is read from (resources/read); scripts/build-apps.mjs builds them. */
export const APPS: Record<AppId, { uri: string }> = {
  page: { uri: 'ui://sitegate/page' },
  changes: { uri: 'ui://sitegate/changes' },
  site: { uri: 'ui://sitegate/site' },
  plan: { uri: 'ui://sitegate/plan' },
};

/** A view: the hidden read (src/web/apps/views.tsx) whose data the app draws beside the tool's own. */
export type ViewCall = { name: string; args: Record<string, unknown> };

type ToolApp = {
  app: AppId;
  /** The view for one successful call, from its arguments; absent when the answer alone suffices. */
  view?: (args: Record<string, unknown>) => ViewCall;
};

/** The site the call named, passed on to its view so both read the same website. */
const site = (args: Record<string, unknown>) =>
  typeof args.websiteId === 'string' ? { websiteId: args.websiteId } : {};

export const TOOL_APPS: Readonly<Record<string, ToolApp>> = {
  get_page: {
    app: 'page',
    view: (a) => ({ name: 'page_view', args: { pageId: a.pageId, ...site(a) } }),
  },
  list_draft_changes: { app: 'changes', view: (a) => ({ name: 'changes_view', args: site(a) }) },
  get_site_overview: { app: 'site', view: (a) => ({ name: 'site_view', args: site(a) }) },
  // A publish plan shows the change it would make (the same review as the approval page). The other
  // prepare_* answers could show the plan app as they are; each would cost its `_meta` in the budget.
  prepare_publish: { app: 'plan', view: (a) => ({ name: 'changes_view', args: site(a) }) },
};

/** Where an app answer carries its view: `_meta`, which hosts do not put in the model's context. */
export const VIEW_META_KEY = 'sitegate/view';
