// The app side of an MCP App, inside the host's sandboxed frame: JSON-RPC over postMessage with the
// host (MCP Apps specification, "Communication Protocol" and "Lifecycle"). Written here rather than
// bundling ext-apps' App class, which brings the SDK and zod (over ten times this budget): the app
// needs the handshake, the tool's input and result, two requests and its size. The shapes are the
// package's own types (type-only imports, checked by tsc), and the test host drives every app with
// ext-apps' AppBridge, whose schemas validate each message.
import type {
  LATEST_PROTOCOL_VERSION,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiOpenLinkRequest,
  McpUiSizeChangedNotification,
  McpUiToolResultNotification,
} from '@modelcontextprotocol/ext-apps';

const PROTOCOL: typeof LATEST_PROTOCOL_VERSION = '2026-01-26';

export type ToolResult = McpUiToolResultNotification['params'];

export type Host = {
  context: McpUiHostContext;
  capabilities: McpUiHostCapabilities;
  /** A tools/call through the host, to this app's own server. */
  callServerTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Asks the host to open `url` in the person's browser; false when it cannot or would not. */
  openLink(url: string): Promise<boolean>;
};

export type AppHandlers = {
  name: string;
  onInput?(args: Record<string, unknown>): void;
  onResult(result: ToolResult, host: Host): void;
};

type Message = {
  jsonrpc?: string;
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message?: string };
};

/** The host's look (MCP Apps specification, "Theming"): its colour scheme and style variables. */
function applyContext(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme) root.dataset.theme = context.theme;
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (value && name.startsWith('--')) root.style.setProperty(name, value);
  }
}

export function startApp(handlers: AppHandlers): void {
  let next = 1;
  const pending = new Map<number | string, { resolve(v: unknown): void; reject(e: Error): void }>();
  const post = (msg: Message) => window.parent.postMessage({ jsonrpc: '2.0', ...msg }, '*');
  const request = (method: string, params: object) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      post({ id, method, params: params as Record<string, unknown> });
    });
  let host: Host | null = null;

  window.addEventListener('message', (event: MessageEvent<Message>) => {
    // Only the frame's parent speaks for the host.
    if (event.source !== window.parent || event.data?.jsonrpc !== '2.0') return;
    const msg = event.data;
    if (msg.id !== undefined && msg.method === undefined) {
      const waiting = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) waiting?.reject(new Error(msg.error.message ?? 'The host refused the request.'));
      else waiting?.resolve(msg.result);
    } else if (msg.id !== undefined) {
      // Requests from the host: a ping, and the teardown notice, which needs nothing saved.
      const known = msg.method === 'ping' || msg.method === 'ui/resource-teardown';
      post(known ? { id: msg.id, result: {} } : { id: msg.id, error: { message: 'Method not found' } });
    } else if (msg.method === 'ui/notifications/tool-input') {
      handlers.onInput?.((msg.params?.arguments as Record<string, unknown> | undefined) ?? {});
    } else if (msg.method === 'ui/notifications/tool-result' && host) {
      handlers.onResult(msg.params as ToolResult, host);
    } else if (msg.method === 'ui/notifications/host-context-changed' && host) {
      host.context = { ...host.context, ...(msg.params as McpUiHostContext) };
      applyContext(host.context);
    }
  });

  const initialize: McpUiInitializeRequest['params'] = {
    appInfo: { name: handlers.name, version: '1' },
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: PROTOCOL,
  };
  void request('ui/initialize', initialize).then((answer) => {
    const init = answer as McpUiInitializeResult;
    host = {
      context: init.hostContext ?? {},
      capabilities: init.hostCapabilities ?? {},
      callServerTool: async (name, args) =>
        (await request('tools/call', { name, arguments: args })) as ToolResult,
      openLink: async (url) => {
        if (!host?.capabilities.openLinks) return false;
        const params: McpUiOpenLinkRequest['params'] = { url };
        const r = (await request('ui/open-link', params).catch(() => ({ isError: true }))) as {
          isError?: boolean;
        };
        return !r.isError;
      },
    };
    applyContext(host.context);
    post({ method: 'ui/notifications/initialized', params: {} });
    reportSize(post);
  });
}

/** Tells the host the document's height whenever it changes, so the frame fits it. */
function reportSize(post: (msg: Message) => void): void {
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    const params: McpUiSizeChangedNotification['params'] = { height };
    post({ method: 'ui/notifications/size-changed', params });
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
