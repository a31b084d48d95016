// The MCP App documents (R-APP-2, docs/mcp-apps.md): each app's script (src/web/apps/browser/<id>.ts)
// bundled by esbuild, minified, with the shared stylesheet, inlined into one static HTML document.
// No framework: the apps build their DOM by hand, a few kilobytes each.
// scripts/build.mjs writes them beside the compiled server (dist/web/apps/built/); a service running
// from its sources builds them with this same function on first use (src/web/apps/documents.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const dir = fileURLToPath(new URL('../src/web/apps/browser/', import.meta.url));

/** The apps by id, with the title of their document. */
export const APP_DOCUMENTS = {
  page: 'Page preview',
  changes: 'Draft changes',
  site: 'Site overview',
  plan: 'Plan to approve',
};

/** Browsers the apps are written for: the engines of today's app hosts. */
const TARGET = ['chrome120', 'firefox121', 'safari17'];

async function script(id) {
  const out = await build({
    stdin: { contents: `import { main } from './${id}.ts';\nmain();\n`, resolveDir: dir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  // Inline in <script>: a "</script" inside a string would end the element; "<\/" reads the same.
  return out.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
}

/** { id: html } for every app; the same bytes for the same sources. */
export async function buildAppDocuments() {
  const css = (
    await transform(readFileSync(`${dir}app.css`, 'utf8'), { loader: 'css', minify: true, target: TARGET })
  ).code.trim();
  const docs = {};
  for (const [id, title] of Object.entries(APP_DOCUMENTS)) {
    docs[id] =
      '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<title>Sitegate · ${title}</title><style>${css}</style></head>` +
      '<body><main id="app" aria-live="polite"><p class="muted">Waiting for the answer…</p></main>' +
      `<script>${await script(id)}</script></body></html>\n`;
  }
  return docs;
}
