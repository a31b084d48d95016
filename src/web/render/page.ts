// A whole site page (draft preview or published): navigation, sections, brand colours and fonts.
// Brand values are used only when they match a strict pattern (hex colour, plain font name); the
// stylesheet is fixed text, and the page carries a CSP that allows no script at all.
import { TZDate } from '@date-fns/tz';
import { FORM_CSS, type SiteForms, bookingForm } from './forms.js';
import { escapeHtml as e } from '../../kernel/html.js';
import { makeResolver } from './markdown.js';
import type { PageWithSections } from '../../db/page-shape.js';
import { layoutClasses, renderSection } from './sections.js';

export type RenderSite = {
  siteName: string;
  /** Where site-relative links point: /sites/<id> or /editor/<id>. */
  basePath: string;
  /** Where library images come from: this service's pages leave it out; an MCP App gives the origin. */
  assetBase?: string;
  mode: 'draft' | 'live';
  /** The draft bar's text, when not the default (the reviewed-revision preview of an approval). */
  draftNote?: string;
  /** The owner hid the live site from search engines (search visibility off): pages carry noindex. */
  noindex?: boolean;
  nav: Array<{ slug: string; title: string }>;
  hasPosts: boolean;
  brand: { palette: Record<string, string>; fonts: { heading?: string; body?: string } };
  /** Forms on this page (contact, booking); absent = no forms drawn. */
  forms?: SiteForms;
  /** The site offers booking requests: the navigation links to /book. */
  bookable?: boolean;
  /** The website's time zone, for post dates (UTC when absent). */
  timeZone?: string;
  /** The live site's MCP endpoint for visitors' assistants, linked from <head>; absent when off. */
  mcpHref?: string;
};

/** Content-Security-Policy of rendered site pages: no scripts, no plugins, no framing. */
export const SITE_CSP =
  "default-src 'none'; img-src 'self' https: http:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const HEX = /^#[0-9a-fA-F]{3,8}$/;
const FONT = /^[A-Za-z0-9 ]{1,40}$/;

function brandCss(brand: RenderSite['brand']): string {
  const vars: string[] = [];
  const map: Record<string, string> = {
    primary: '--primary',
    secondary: '--secondary',
    accent: '--accent',
    text: '--text',
    background: '--bg',
  };
  for (const [k, v] of Object.entries(map)) {
    const c = brand.palette[k];
    if (c && HEX.test(c)) vars.push(`${v}:${c}`);
  }
  const font = (f: string | undefined, v: string) => {
    if (f && FONT.test(f)) vars.push(`${v}:"${f}",system-ui,sans-serif`);
  };
  font(brand.fonts.heading, '--font-heading');
  font(brand.fonts.body, '--font-body');
  return vars.length ? `:root{${vars.join(';')}}` : '';
}

const CSS = `:root{--primary:#333;--secondary:#eee;--accent:#06c;--text:#1b1b1f;--bg:#fff;--font-heading:system-ui,sans-serif;--font-body:system-ui,sans-serif}
*{box-sizing:border-box}body{margin:0;font:17px/1.6 var(--font-body);color:var(--text);background:var(--bg)}
h1,h2,h3,h4{font-family:var(--font-heading);line-height:1.2}img{max-width:100%;height:auto;border-radius:8px}
a{color:var(--accent)}.site-header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:1rem 1.5rem;border-bottom:1px solid #0001}
.site-header .brand{font-weight:700;font-size:1.2rem;color:var(--primary);text-decoration:none;margin-right:auto}
.site-header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}.site-header nav a{text-decoration:none;color:var(--text)}
.draft-bar{background:#fff3cd;color:#5c4400;padding:.5rem 1.5rem;font-size:.9rem;border-bottom:1px solid #e6d28a}
section .inner,.post-head .inner{margin:0 auto;padding:0 1.25rem}.w-narrow .inner{max-width:640px}.w-normal .inner{max-width:960px}
.w-wide .inner{max-width:1200px}.w-full .inner{max-width:none}
.py-none{padding:0}.py-sm{padding:1rem 0}.py-md{padding:2.5rem 0}.py-lg{padding:4rem 0}.py-xl{padding:6rem 0}
.hero{display:grid;gap:2rem;align-items:center}.hero h1{font-size:clamp(2rem,5vw,3.2rem);margin:0 0 .5rem;color:var(--primary)}
.lead{font-size:1.2rem}.btn{display:inline-block;margin-top:1rem;padding:.7rem 1.3rem;border-radius:8px;background:var(--primary);color:#fff;text-decoration:none}
.grid{display:grid;gap:1.25rem;grid-template-columns:repeat(auto-fit,minmax(220px,1fr))}
.card{border:1px solid #0002;border-radius:10px;padding:1.25rem;background:#fff8}.price{font-size:1.6rem;font-weight:700}
blockquote{margin:0;padding:1rem 1.25rem;border-left:4px solid var(--accent);background:#0000000a}cite{display:flex;align-items:center;gap:.6rem;margin-top:.5rem}
.avatar{width:2.75rem;height:2.75rem;object-fit:cover;border-radius:50%}.card-link{color:inherit}
.table-scroll{overflow-x:auto;margin:1rem 0}table{border-collapse:collapse;min-width:100%;width:max-content}th,td{max-width:22rem;padding:.45rem .75rem;border-bottom:1px solid #0002;text-align:left;vertical-align:top}th{background:#0000000a}.al-center{text-align:center}.al-right{text-align:right}
pre{overflow-x:auto;padding:1rem;border-radius:8px;background:#1b1b1f;color:#f4f4f6;font-size:.9rem;line-height:1.5}code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
:not(pre)>code{background:#0000000d;padding:.1em .3em;border-radius:4px}
details{border-bottom:1px solid #0002;padding:.75rem 0}summary{cursor:pointer;font-weight:600}
.cta{text-align:center;background:var(--secondary);border-radius:12px;padding:2rem}address{font-style:normal}
.is-hidden{opacity:.45;outline:2px dashed #b8860b}.hidden-note{font-size:.85rem;color:#8a6100;margin:0 0 .5rem}
.site-footer{padding:2rem 1.5rem;color:#666;font-size:.9rem;border-top:1px solid #0001}
.post-head{padding:2.5rem 0 0}.post-head h1{margin:0 0 .25rem}.post-head+section{padding-top:1rem}
.posts{list-style:none;padding:0}.posts li{margin-bottom:1.25rem}.posts p{margin:.25rem 0 0}.post-date{display:block;color:#555;font-size:.9rem}
@media (min-width:800px){.hero{grid-template-columns:3fr 2fr}}
@media (max-width:640px){.hide-mobile{display:none}}@media (min-width:641px){.hide-desktop{display:none}}
${FORM_CSS}`;

function shell(site: RenderSite, title: string, description: string | null, body: string): string {
  const base = site.basePath;
  const nav = site.nav
    .map((p) => `<a href="${e(`${base}/${p.slug === 'home' ? '' : p.slug}`)}">${e(p.title)}</a>`)
    .concat(site.hasPosts ? [`<a href="${e(`${base}/blog`)}">Blog</a>`] : [])
    .concat(site.bookable ? [`<a href="${e(`${base}/book`)}">Book</a>`] : [])
    .join('');
  const bar =
    site.mode === 'draft'
      ? `<div class="draft-bar" role="status">${e(site.draftNote ?? 'Draft preview: visitors do not see these changes until the owner publishes them.')}</div>`
      : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title>${description ? `<meta name="description" content="${e(description)}">` : ''}${site.mcpHref ? `<link rel="mcp" href="${e(site.mcpHref)}">` : ''}${site.mode === 'draft' || site.noindex ? '<meta name="robots" content="noindex">' : ''}<style>${CSS}${brandCss(site.brand)}</style></head><body>${bar}<header class="site-header"><a class="brand" href="${e(`${base}/`)}">${e(site.siteName)}</a><nav>${nav}</nav></header><main>${body}</main><footer class="site-footer">© ${e(site.siteName)}</footer></body></html>`;
}

const narrow = (inner: string) =>
  `<section class="w-narrow py-md"><div class="inner">${inner}</div></section>`;

const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** A post's date as `<time>`, the day as it was in the site's time zone ("27 November 2026"). */
function postDate(at: string | undefined, timeZone = 'UTC'): string {
  if (!at) return '';
  const day = new TZDate(at, timeZone);
  if (Number.isNaN(day.getTime())) return '';
  let f = DATE_FORMATS.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' });
    DATE_FORMATS.set(timeZone, f);
  }
  const iso = [day.getFullYear(), day.getMonth() + 1, day.getDate()]
    .map((n, i) => String(n).padStart(i ? 2 : 4, '0'))
    .join('-');
  return `<time class="post-date" datetime="${iso}">${e(f.format(day))}</time>`;
}

/** Posts newest first (the order of the blog index); undated posts last, in site order. */
function newestFirst<T extends { createdAt?: string }>(posts: readonly T[]): T[] {
  const at = (p: T) => (p.createdAt ? Date.parse(p.createdAt) : Number.NEGATIVE_INFINITY);
  return [...posts].sort((a, b) => at(b) - at(a));
}

export function renderPage(site: RenderSite, page: PageWithSections): string {
  const resolve = makeResolver(site.basePath, site.assetBase);
  const draft = site.mode === 'draft';
  let body = page.sections.map((s) => renderSection(s, resolve, draft, site.forms)).join('');
  // A post shows its title and date; a migrated post whose first section is a hero already shows its title.
  if (page.kind === 'post') {
    const date = postDate(page.createdAt, site.timeZone);
    const title = page.sections[0]?.type === 'hero' ? '' : `<h1>${e(page.title)}</h1>`;
    // The header lines up with the post's text: the same width as its first section.
    const width = layoutClasses(page.sections[0]?.layout).split(' ')[0];
    if (title || date)
      body = `<header class="post-head ${width}"><div class="inner">${title}${date}</div></header>${body}`;
  } else if (!page.sections.some((s) => s.type === 'hero' && (draft || !s.hidden))) {
    // Every page has one main heading: without a hero (the page's own h1), the page's title is it.
    const width = layoutClasses(page.sections[0]?.layout).split(' ')[0];
    body = `<header class="post-head ${width}"><div class="inner"><h1>${e(page.title)}</h1></div></header>${body}`;
  }
  const title = page.seoTitle || `${page.title} · ${site.siteName}`;
  return shell(site, title, page.seoDescription, body);
}

export function renderBlogIndex(site: RenderSite, posts: PageWithSections[]): string {
  const items = newestFirst(posts)
    .map(
      (p) =>
        `<li><a href="${e(`${site.basePath}/${p.slug}`)}"><strong>${e(p.title)}</strong></a>${postDate(p.createdAt, site.timeZone)}${p.excerpt ? `<p>${e(p.excerpt)}</p>` : ''}</li>`,
    )
    .join('');
  const body = `<section class="w-narrow py-md"><div class="inner"><h1>Blog</h1><ul class="posts">${items || '<li>No posts yet.</li>'}</ul></div></section>`;
  return shell(site, `Blog · ${site.siteName}`, null, body);
}

export type BookingOffer = {
  timeZone: string;
  services: Array<{
    id: string;
    name: string;
    description: string;
    durationMinutes: number;
    price: string | null;
  }>;
};

const facts = (s: BookingOffer['services'][number]) =>
  `<p class="service-facts">${s.durationMinutes} minutes${s.price ? ` · ${e(s.price)}` : ''}</p>`;

/** /book: the services a visitor can ask to book. */
export function renderBookingIndex(site: RenderSite, offer: BookingOffer): string {
  const items = offer.services
    .map(
      (s) =>
        `<div class="card"><h2><a href="${e(`${site.basePath}/book/${s.id}`)}">${e(s.name)}</a></h2>${facts(s)}${s.description ? `<p>${e(s.description)}</p>` : ''}</div>`,
    )
    .join('');
  return shell(
    site,
    `Book · ${site.siteName}`,
    null,
    narrow(`<h1>Book</h1><div class="grid">${items}</div>`),
  );
}

/** /book/<service>: one service and its request form. */
export function renderBookingPage(site: RenderSite, offer: BookingOffer, serviceId: string): string {
  const s = offer.services.find((x) => x.id === serviceId)!;
  const form = site.forms ? bookingForm(s.id, offer.timeZone, site.forms) : '';
  return shell(
    site,
    `Book ${s.name} · ${site.siteName}`,
    null,
    narrow(`<h1>${e(s.name)}</h1>${facts(s)}${s.description ? `<p>${e(s.description)}</p>` : ''}${form}`),
  );
}

/** A short page in the site's look: thanks after a form, or why something could not be done. */
export function renderNotice(
  site: RenderSite,
  n: { title: string; paragraphs: string[]; back?: { href: string; label: string } },
): string {
  const back = n.back ? `<p><a class="btn" href="${e(n.back.href)}">${e(n.back.label)}</a></p>` : '';
  return shell(
    site,
    `${n.title} · ${site.siteName}`,
    null,
    narrow(`<h1>${e(n.title)}</h1>${n.paragraphs.map((p) => `<p>${e(p)}</p>`).join('')}${back}`),
  );
}
