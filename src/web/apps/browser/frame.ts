// Server-drawn HTML (the site renderer's page, the approval page's review) shown in a frame of its own:
// `srcdoc` with a sandbox that allows no script, no form, no popup and no navigation of the app, so the
// app's script and the drawn page never share a document. `allow-same-origin` only lets the app read
// the frame's height; with no script in the frame it grants the frame nothing.
import { h } from './dom.js';

/** The drawn document's own height (not the frame's), or null while it cannot be read. */
function heightOf(frame: HTMLIFrameElement): number | null {
  const root = frame.contentDocument?.documentElement;
  return root ? Math.ceil(root.getBoundingClientRect().height) : null;
}

/**
 * A page drawn at `width` CSS pixels (390 phone, 1280 desktop), scaled down to fit the app, scrolled
 * to the element `focus` names (the first changed section) once drawn.
 */
export function scaledFrame(html: string, width: number, title: string, focus?: string): HTMLElement {
  const frame = h('iframe', { sandbox: 'allow-same-origin', title, scrolling: 'no' });
  frame.srcdoc = html;
  frame.style.width = `${width}px`;
  const stage = h('div', { class: 'stage' }, frame);
  const box = h('div', { class: 'viewport' }, stage);
  let scale = 1;
  const resize = () => {
    const height = heightOf(frame) ?? 800;
    scale = Math.min(1, box.clientWidth / width || 1);
    frame.style.height = `${height}px`;
    frame.style.transform = `scale(${scale})`;
    stage.style.width = `${Math.ceil(width * scale)}px`;
    stage.style.height = `${Math.ceil(height * scale)}px`;
  };
  frame.addEventListener('load', () => {
    resize();
    // Late layout (images, fonts) can change the page's height.
    setTimeout(resize, 300);
    const target = focus ? frame.contentDocument?.getElementById(focus) : null;
    if (target) box.scrollTop = Math.max(0, target.offsetTop - 24) * scale;
  });
  new ResizeObserver(resize).observe(box);
  return box;
}

/** A document drawn at the app's own width, as tall as it is. */
export function fullFrame(html: string, title: string): HTMLElement {
  const frame = h('iframe', { sandbox: 'allow-same-origin', title, class: 'full', scrolling: 'no' });
  frame.srcdoc = html;
  const resize = () => {
    frame.style.height = `${heightOf(frame) ?? 600}px`;
  };
  frame.addEventListener('load', () => {
    resize();
    setTimeout(resize, 300);
  });
  new ResizeObserver(resize).observe(frame);
  return frame;
}
