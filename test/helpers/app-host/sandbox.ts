// The test host's sandbox proxy (runs in Chromium, on an origin other than the host page's): loads the
// app's HTML into an inner frame, which inherits this page's CSP (sent as a header, built from the
// resource's `_meta.ui.csp`), and relays messages between the host and the app (MCP Apps
// specification, "Sandbox proxy").
const host = new URL(document.referrer).origin;
const inner = document.createElement('iframe');
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
document.body.append(inner);

window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== host) return;
    if (event.data?.method === 'ui/notifications/sandbox-resource-ready') {
      const doc = inner.contentDocument!;
      doc.open();
      doc.write(event.data.params.html);
      doc.close();
      return;
    }
    inner.contentWindow?.postMessage(event.data, '*');
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, host);
  }
});

window.parent.postMessage(
  { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
  host,
);
