// Building the apps' own markup: every string goes in as text, never as HTML, so nothing a tool's
// answer carries can become markup here. Server-drawn HTML (the site renderer's) only ever goes into a
// script-less frame (./frame.ts).
import { type Host, type ToolResult, startApp } from './bridge.js';
import { VIEW_META_KEY } from '../../../mcp/apps/catalogue.js';

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replaces what the app shows. */
export function show(...children: Child[]): void {
  const root = document.getElementById('app')!;
  root.replaceChildren(...children.filter((c): c is Node | string => Boolean(c)));
}

/** The tool's data (the R-RESULT envelope's `data`), or its refusal's message. */
export function dataOf<T>(result: ToolResult): { data: T } | { error: string } {
  const s = result.structuredContent as { ok?: boolean; data?: T; error?: { message?: string } } | undefined;
  if (s?.ok === true && s.data !== undefined) return { data: s.data };
  const text = result.content?.find((c) => c.type === 'text');
  return { error: s?.error?.message ?? (text && 'text' in text ? text.text : 'The tool did not answer.') };
}

/** The view the server drew beside the answer (src/mcp/apps/catalogue.ts), when there is one. */
export function viewOf<T>(result: ToolResult): T | null {
  return ((result._meta as Record<string, unknown> | undefined)?.[VIEW_META_KEY] as T | undefined) ?? null;
}

export const badge = (text: string, kind: string) => h('span', { class: `badge ${kind}` }, text);

/** A refusal or failure, in the tool's own words. */
export const problem = (message: string) => h('p', { class: 'problem', role: 'alert' }, message);

/** A button that opens a page of this service through the host, or shows its address to copy. */
export function linkButton(label: string, url: string, open: (url: string) => Promise<boolean>): HTMLElement {
  const note = h('span', { class: 'muted copy' });
  const button = h('button', { type: 'button', class: 'primary' }, label);
  button.addEventListener('click', async () => {
    if (!(await open(url))) note.textContent = `Open this address in your browser: ${url}`;
  });
  return h('div', { class: 'actions' }, button, note);
}

/** "1 change", "3 changes". */
export const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** An app's heading: its title, a line of facts under it, and controls at its side. */
export function heading(title: string, facts: Child[], side?: Child): HTMLElement {
  return h(
    'header',
    { class: 'bar' },
    h('div', {}, h('h1', {}, title), h('p', { class: 'muted' }, ...facts)),
    side,
  );
}

/** Starts an app that draws the data of each answer it is shown; a refusal shows in the tool's words. */
export function drawApp<T>(name: string, draw: (data: T, result: ToolResult, host: Host) => Child[]): void {
  startApp({
    name,
    onResult(result, host) {
      const got = dataOf<T>(result);
      show(...('error' in got ? [problem(got.error)] : draw(got.data, result, host)));
    },
  });
}
