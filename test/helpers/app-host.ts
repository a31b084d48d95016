// A test host for MCP Apps, built on ext-apps' own host side (test/helpers/app-host/host.ts, bundled
// here with esbuild): a host page and a sandbox proxy, each served from a port of its own on 127.0.0.1
// (two origins, as the MCP Apps specification's "Sandbox proxy" requires). The sandbox page carries
// the CSP the specification has a host build from the resource's `_meta.ui.csp` ("Content Security
// Policy Enforcement"), and the app's frame inherits it. `showApp` does what a host does for one tool
// call: tools/list names the app, resources/read fetches it, tools/call answers, and the host renders
// the answer in the app; tool calls the app makes go back through the same SDK client.
import { type Server, createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { freePort } from '../../scripts/free-port.js';
import type { RenderInput } from './app-host/host.js';

export type AppHost = {
  hostUrl: string;
  sandboxUrl: string;
  /** A real image on the host's origin: loads anywhere a policy does not refuse it. */
  imageUrl: string;
  close(): Promise<void>;
};

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function bundle(name: string): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL(`./app-host/${name}.ts`, import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** The frame policy for an app, from its declared domains (only well-formed origins are taken). */
export function appCsp(csp: McpUiResourceCsp): string {
  const list = (v: string[] | undefined) => (v ?? []).filter((d) => ORIGIN.test(d)).join(' ');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join('; ');
}

const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test host</title><style>
body{margin:0;background:#eef0f3;font:14px/1.4 system-ui,sans-serif;color:#333}
.chat{max-width:900px;margin:0 auto;padding:12px}
.turn{background:#fff;border-radius:12px;padding:10px 12px;margin-bottom:10px;box-shadow:0 1px 2px #0002}
.turn b{font-family:ui-monospace,monospace;font-weight:600}
#slot iframe{display:block;width:100%;height:200px;border:1px solid #d5d8de;border-radius:10px;background:#fff}
</style></head><body><div class="chat"><div class="turn">Assistant called <b id="tool"></b></div>
<div id="slot"></div></div><script src="/host.js"></script></body></html>`;

const SANDBOX_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;height:100%}iframe{display:block;width:100%;height:100%;border:0}
</style></head><body><script src="/sandbox.js"></script></body></html>`;

async function listen(server: Server): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 4) throw err;
    }
  }
}

export async function startAppHost(): Promise<AppHost> {
  const [hostJs, sandboxJs] = await Promise.all([bundle('host'), bundle('sandbox')]);
  const js = { 'content-type': 'text/javascript; charset=utf-8' };
  const html = { 'content-type': 'text/html; charset=utf-8' };
  const host = createServer((req, res) => {
    if (req.url === '/host.js') return res.writeHead(200, js).end(hostJs);
    if (req.url === '/pixel.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    if (req.url === '/') return res.writeHead(200, html).end(HOST_PAGE);
    res.writeHead(404).end();
  });
  const sandbox = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (url.pathname === '/sandbox.js') return res.writeHead(200, js).end(sandboxJs);
    if (url.pathname !== '/sandbox.html') return res.writeHead(404).end();
    let csp: McpUiResourceCsp = {};
    try {
      csp = JSON.parse(url.searchParams.get('csp') ?? '{}') as McpUiResourceCsp;
    } catch {
      // a malformed policy declares nothing: the restrictive default
    }
    res.writeHead(200, { ...html, 'content-security-policy': appCsp(csp) }).end(SANDBOX_PAGE);
  });
  const [hostPort, sandboxPort] = [await listen(host), await listen(sandbox)];
  return {
    hostUrl: `http://127.0.0.1:${hostPort}/`,
    imageUrl: `http://127.0.0.1:${hostPort}/pixel.png`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}/sandbox.html`,
    async close() {
      await Promise.all([host, sandbox].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

export type ShownApp = {
  /** The app's own frame (inside the sandbox proxy). */
  app: Frame;
  /** The tool's answer the host passed to the app. */
  result: Record<string, unknown>;
  /** The app document the host read. */
  html: string;
  csp: McpUiResourceCsp;
};

/** Calls `tool` with `client` (an app-capable SDK client) and renders its app on `page`. */
export async function showApp(
  page: Page,
  host: AppHost,
  client: Client,
  tool: string,
  args: Record<string, unknown>,
): Promise<ShownApp> {
  const listed = (await client.listTools()).tools.find((t) => t.name === tool);
  const uri = (listed?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!listed || !uri) throw new Error(`${tool} names no app`);
  const content = (await client.readResource({ uri })).contents[0] as unknown as {
    text: string;
    _meta: { ui: { csp: McpUiResourceCsp } };
  };
  const result = (await client.callTool({ name: tool, arguments: args })) as Record<string, unknown>;
  await page.exposeFunction('hostCallTool', (p: { name: string; arguments?: Record<string, unknown> }) =>
    client.callTool(p),
  );
  await page.goto(host.hostUrl);
  const input: RenderInput = {
    sandboxUrl: host.sandboxUrl,
    html: content.text,
    csp: content._meta.ui.csp,
    tool: { name: listed.name, inputSchema: { type: 'object' } },
    args,
    result: result as RenderInput['result'],
  };
  await page.evaluate((x) => window.renderApp(x), input);
  const app = page.frames().find((f) => f.parentFrame()?.parentFrame() === page.mainFrame());
  if (!app) throw new Error('the app frame did not load');
  return { app, result, html: content.text, csp: content._meta.ui.csp };
}
