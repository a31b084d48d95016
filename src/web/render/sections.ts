// Section data -> HTML for the draft preview and the published site (R-WEB-6). Every value from
// content goes through escapeHtml, inline() or markdown(); URLs through the resolver (isSafeUrl), so no
// content can add a tag, an attribute or a script. Layout tokens map to a fixed set of class names.
import type { PageSection } from '../../db/page-shape.js';
import { type SiteForms, contactForm } from './forms.js';
import { escapeHtml as e } from '../../kernel/html.js';
import { type UrlResolver, inline, markdown } from './markdown.js';

type C = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): C[] =>
  Array.isArray(v) ? v.filter((x): x is C => typeof x === 'object' && x !== null) : [];

function link(url: unknown, label: unknown, resolve: UrlResolver, cls = 'btn'): string {
  const href = resolve(str(url));
  if (!href || !str(label)) return '';
  return `<a class="${cls}" href="${e(href)}">${e(str(label))}</a>`;
}

function img(url: unknown, alt: unknown, resolve: UrlResolver): string {
  const src = resolve(str(url));
  return src ? `<img src="${e(src)}" alt="${e(str(alt))}" loading="lazy">` : '';
}

const resolveOr = (url: unknown, r: UrlResolver) => Boolean(str(url) && r(str(url)));
const h2 = (v: unknown) => (str(v) ? `<h2>${e(str(v))}</h2>` : '');
const md = (v: unknown, r: UrlResolver) => (str(v) ? markdown(str(v), r) : '');

const RENDERERS: Record<string, (c: C, r: UrlResolver) => string> = {
  hero: (c, r) =>
    `<div class="hero"><div><h1>${e(str(c.heading))}</h1>${str(c.subheading) ? `<p class="lead">${inline(str(c.subheading), r)}</p>` : ''}${link(c.buttonUrl, c.buttonLabel, r)}</div>${img(c.imageUrl, '', r)}</div>`,
  text: (c, r) => `${h2(c.heading)}${md(c.body, r)}`,
  image: (c, r) =>
    `<figure>${img(c.url, c.alt, r)}${str(c.caption) ? `<figcaption>${inline(str(c.caption), r)}</figcaption>` : ''}</figure>`,
  gallery: (c, r) =>
    `${h2(c.heading)}<div class="grid">${list(c.images)
      .map((i) => img(i.url, i.alt, r))
      .join('')}</div>`,
  features: (c, r) =>
    `${h2(c.heading)}<div class="grid">${list(c.items)
      .map(
        (i) =>
          `<div class="card">${img(i.imageUrl, i.title, r)}<h3>${resolveOr(i.url, r) ? link(i.url, i.title, r, 'card-link') : e(str(i.title))}</h3>${md(i.body, r)}</div>`,
      )
      .join('')}</div>`,
  testimonials: (c, r) =>
    `${h2(c.heading)}<div class="grid">${list(c.items)
      .map(
        (i) =>
          `<blockquote><p>${inline(str(i.quote), r)}</p><cite>${img(i.imageUrl, '', r).replace('<img ', '<img class="avatar" ')}${e(str(i.author))}</cite></blockquote>`,
      )
      .join('')}</div>`,
  pricing: (c, r) =>
    `${h2(c.heading)}<div class="grid">${list(c.plans)
      .map(
        (p) =>
          `<div class="card"><h3>${e(str(p.name))}</h3><p class="price">${e(str(p.price))}</p><ul>${(Array.isArray(
            p.features,
          )
            ? p.features
            : []
          )
            .map((f) => `<li>${inline(str(f), r)}</li>`)
            .join('')}</ul>${link(p.buttonUrl, p.buttonLabel, r)}</div>`,
      )
      .join('')}</div>`,
  faq: (c, r) =>
    `${h2(c.heading)}${list(c.items)
      .map((i) => `<details><summary>${e(str(i.question))}</summary>${md(i.answer, r)}</details>`)
      .join('')}`,
  cta: (c, r) =>
    `<div class="cta"><h2>${e(str(c.heading))}</h2>${md(c.body, r)}${link(c.buttonUrl, c.buttonLabel, r)}</div>`,
  contact: (c, r) => {
    const tel = str(c.phone).replace(/[^\d+]/g, '');
    const lines = [
      str(c.address) ? `<p>${e(str(c.address))}</p>` : '',
      str(c.phone) ? `<p><a href="tel:${e(tel)}">${e(str(c.phone))}</a></p>` : '',
      str(c.email) ? `<p><a href="mailto:${e(str(c.email))}">${e(str(c.email))}</a></p>` : '',
    ];
    return `${h2(c.heading)}${md(c.body, r)}<address>${lines.join('')}</address>`;
  },
  blog_body: (c, r) => `<article>${md(c.body, r)}</article>`,
};

const WIDTHS = new Set(['narrow', 'normal', 'wide', 'full']);
const PADDINGS = new Set(['none', 'sm', 'md', 'lg', 'xl']);

/** The class list for a section's layout tokens; unknown values fall back to the defaults. */
export function layoutClasses(layout: unknown): string {
  const l = (layout && typeof layout === 'object' ? layout : {}) as C;
  const cls = [
    `w-${WIDTHS.has(str(l.width)) ? str(l.width) : 'normal'}`,
    `py-${PADDINGS.has(str(l.paddingY)) ? str(l.paddingY) : 'md'}`,
  ];
  if (l.hideOnMobile === true) cls.push('hide-mobile');
  if (l.hideOnDesktop === true) cls.push('hide-desktop');
  return cls.join(' ');
}

/**
 * One section as HTML. `draft` shows hidden sections, marked; the live site leaves them out. A contact
 * section with `showForm` (the default) carries the contact form when the page has `forms`.
 */
export function renderSection(
  s: PageSection,
  resolve: UrlResolver,
  draft: boolean,
  forms?: SiteForms,
): string {
  if (s.hidden && !draft) return '';
  const render = RENDERERS[s.type];
  const content = (s.content && typeof s.content === 'object' ? s.content : {}) as C;
  let body = render ? render(content, resolve) : '';
  if (s.type === 'contact' && content.showForm !== false && forms) body += contactForm(s.id, forms);
  const type = RENDERERS[s.type] ? s.type : 'unknown';
  const hidden = s.hidden ? ' is-hidden' : '';
  const note = s.hidden ? '<p class="hidden-note">Hidden: not shown on the live site.</p>' : '';
  return `<section id="s-${e(s.id)}" class="s-${type} ${layoutClasses(s.layout)}${hidden}"><div class="inner">${note}${body}</div></section>`;
}
