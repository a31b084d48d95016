// The MCP Apps side of the protocol answers (R-APP-1), for a client that renders apps: tools/list with
// `_meta.ui.resourceUri` on the tools of src/mcp/apps/catalogue.ts, their answers with the app's view
// in `_meta`, and resources/read of the `ui://` app documents. src/mcp/tool-answers.ts applies it only
// when the request's client declared the extension (./extension.ts), so every other client gets the
// answers it got before. The documents and the views are the web floor's (src/web/apps/), handed in.
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { CallToolResult, ListToolsResult, ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import type { Caller } from '../../kernel/caller.js';
import { type CallDeps, callTool } from '../call.js';
import type { ToolDef } from '../define-tool.js';
import { createRegistry } from '../registry.js';
import { APPS, type AppId, TOOL_APPS, VIEW_META_KEY } from './catalogue.js';

export type AppSources = {
  /** The service's own origin: the only place an app may load images from (R-APP-2). */
  origin: string;
  /** The app documents by id, built once per process. */
  documents(): Promise<ReadonlyMap<AppId, string>>;
  /**
   * The reads behind the views. They are tools in every way but one: they are never listed or
   * callable by name, only run here, through the call path (limits, gate, Activity), after a
   * successful call of the tool they belong to.
   */
  views: ToolDef[];
};

export type McpApps = {
  /** tools/list with each app tool's `_meta.ui`; the same array for the same listing. */
  list(result: ListToolsResult): ListToolsResult;
  /** A tool's answer with its app's view in `_meta`, when it has one and the call succeeded. */
  answer(
    deps: CallDeps,
    caller: Caller,
    name: string,
    args: unknown,
    result: CallToolResult,
  ): Promise<CallToolResult>;
  /** resources/read of an app document, or null when `uri` names none. */
  read(uri: string): Promise<ReadResourceResult | null>;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool as an app-capable client sees it: its listing, plus the app it shows. */
function withApp(tool: Tool): Tool {
  const app = TOOL_APPS[tool.name]?.app;
  return app ? { ...tool, _meta: { ...tool._meta, ui: { resourceUri: APPS[app].uri } } } : tool;
}

export function createMcpApps(sources: AppSources): McpApps {
  const views = createRegistry(sources.views);
  const listed = new WeakMap<Tool[], Tool[]>();
  const byUri = new Map(Object.entries(APPS).map(([id, a]) => [a.uri, id as AppId]));
  // What the host builds the app's frame policy from (MCP Apps specification, "UI Resource Format"):
  // no connections, no frames, images (and the like) from this service only.
  const meta: McpUiResourceMeta = { csp: { resourceDomains: [sources.origin] }, prefersBorder: true };

  return {
    list(result) {
      let tools = listed.get(result.tools);
      if (!tools) {
        tools = result.tools.map(withApp);
        listed.set(result.tools, tools);
      }
      return { ...result, tools };
    },

    async answer(deps, caller, name, args, result) {
      const view = TOOL_APPS[name]?.view?.(isPlainObject(args) ? args : {});
      const ok = (result.structuredContent as { ok?: unknown } | undefined)?.ok === true;
      const compiled = view && views.get(view.name);
      // A view the connection's scopes could never pass is not asked for: its refusal would only
      // add a denied line to Activity for something nobody requested.
      if (!compiled || !ok || result.isError || !caller.scopes.includes(compiled.def.scope)) return result;
      const shown = await callTool(deps, caller, compiled, view.args);
      const data = shown.structuredContent as { ok?: unknown; data?: unknown } | undefined;
      if (data?.ok !== true) return result;
      return { ...result, _meta: { ...result._meta, [VIEW_META_KEY]: data.data } };
    },

    async read(uri) {
      const id = byUri.get(uri);
      if (!id) return null;
      const text = (await sources.documents()).get(id);
      if (text === undefined) throw new Error(`app document ${id} was not built`);
      return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text, _meta: { ui: meta } }] };
    },
  };
}
