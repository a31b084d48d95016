// The test host's page (runs in Chromium): ext-apps' own host side, AppBridge, renders one app the way a
// web host must (MCP Apps specification, "Sandbox proxy"): in a sandbox frame on another origin, which
// loads the app's HTML under the CSP built from the resource's `_meta.ui.csp`. Tool calls the app makes
// go to the Node side (window.hostCallTool), which sends them to the real server with the SDK client;
// links the app asks to open are only recorded.
import type { McpUiResourceCsp, McpUiToolResultNotification } from '@modelcontextprotocol/ext-apps';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

export type RenderInput = {
  sandboxUrl: string;
  html: string;
  csp: McpUiResourceCsp;
  tool: { name: string; inputSchema: { type: 'object' } };
  args: Record<string, unknown>;
  result: McpUiToolResultNotification['params'];
};

declare global {
  interface Window {
    renderApp(input: RenderInput): Promise<void>;
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    /** What the app asked the host to do: `tools/call <name>` and `open <url>`, in order. */
    hostSaw: string[];
  }
}

window.hostSaw = [];

window.renderApp = async (input) => {
  document.getElementById('tool')!.textContent = input.tool.name;
  const frame = document.createElement('iframe');
  frame.id = 'sandbox';
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.src = `${input.sandboxUrl}?csp=${encodeURIComponent(JSON.stringify(input.csp))}`;
  document.getElementById('slot')!.append(frame);

  const bridge = new AppBridge(
    null,
    { name: 'sitegate-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {} },
    {
      hostContext: {
        theme: 'light',
        displayMode: 'inline',
        platform: 'web',
        locale: 'en-GB',
        containerDimensions: { maxHeight: 6000 },
        toolInfo: { tool: input.tool },
      },
    },
  );
  bridge.oncalltool = async (params) => {
    window.hostSaw.push(`tools/call ${params.name}`);
    return (await window.hostCallTool(params)) as McpUiToolResultNotification['params'];
  };
  bridge.onopenlink = async ({ url }) => {
    window.hostSaw.push(`open ${url}`);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  const ready = new Promise<void>((resolve) => {
    bridge.onsandboxready = () => resolve();
  });
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await ready;
  await bridge.sendSandboxResourceReady({ html: input.html, csp: input.csp });
  await initialized;
  await bridge.sendToolInput({ arguments: input.args });
  await bridge.sendToolResult(input.result);
};
