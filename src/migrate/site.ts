import { isSafeUrl } from '../domain/sections/types.js';
import { PORTABLE_CAPS, type PortableSiteV1 } from '../portable/schema.js';
import { type ConvertCtx, type ConvertedPage, mdUrl, slugFor } from './convert.js';
import { type CrawledPage, pageKey } from './crawler.js';
import { safeText } from './dom.js';
import { furnitureOf } from './furniture.js';

export type PlannedPage = {
  crawled: CrawledPage;
  isPost: boolean;
  /**
   * A page (not the home page) that lists the posts: the service generates the blog's index at
   * /blog from the posts, so this page is not migrated as a page of its own; links to it lead there.
   */
  isBlogIndex: boolean;
  slug: string;
  /** Path on the new site: `/`, `/about`, `/blog/harbour-lights`. */
  path: string;
  /** The prefix of this page's externalKeys: from its source address. */
  keyPrefix: string;
  navLabel: string | null;
  navOrder: number;
  previewOrder: number;
  /** A post's date as the old site shows it (YYYY-MM-DD), or null when it shows none. */
  date: string | null;
};

export type SitePlan = {
  pages: PlannedPage[];
  siteName: string | null;
  logoUrl: string | null;
  pathByKey: Map<string, string>;
  /** Same-site addresses linked to but not migrated (robots.txt, limits, files): links became text. */
  unlinked: Set<string>;
  /** The summary a blog index shows for each post, by the post's new path. */
  previewExcerpts: Map<string, string>;
  /** Fingerprints of the blocks repeated across the site (furniture.ts): kept on the home page only. */
  furniture: Set<string>;
};

function resolve(href: string, base: URL): URL | null {
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

export function planSite(crawled: readonly CrawledPage[], failedUrls: readonly string[]): SitePlan {
  const keyToIndex = new Map<string, number>();
  crawled.forEach((c, i) => {
    for (const k of c.keys) if (!keyToIndex.has(k)) keyToIndex.set(k, i);
  });
  const indexOf = (href: string): number | undefined => keyToIndex.get(pageKey(new URL(href)));
  const labels = new Map<number, { label: string; order: number }>();
  const previews = new Map<number, number>();
  let navCount = 0;
  let previewCount = 0;
  for (const c of crawled) {
    for (const { href, label } of c.signals.nav) {
      const i = indexOf(href);
      if (i !== undefined && !labels.has(i)) labels.set(i, { label, order: navCount++ });
    }
    for (const href of c.signals.previews) {
      const i = indexOf(href);
      if (i !== undefined && i > 0 && !previews.has(i)) previews.set(i, previewCount++);
    }
  }
  const slugs = new Set<string>();
  const prefixes = new Set<string>();
  const unique = (base: string, used: Set<string>) => {
    let s = base;
    for (let n = 2; used.has(s); n++) s = `${base}-${n}`;
    used.add(s);
    return s;
  };
  const pages: PlannedPage[] = crawled.map((c, i) => {
    // A page a listing previews is a post, unless it lists posts itself (a tag or author page).
    const isPost = i > 0 && (c.signals.looksLikePost || (previews.has(i) && c.signals.listed < 2));
    const source = slugFor(c.url.pathname);
    const last = slugFor(c.url.pathname.split('/').filter(Boolean).at(-1) ?? '');
    const slug = i === 0 ? unique('home', slugs) : unique(isPost ? `blog/${last}` : source, slugs);
    return {
      crawled: c,
      isPost,
      isBlogIndex: false,
      slug,
      path: i === 0 ? '/' : `/${slug}`,
      keyPrefix: unique(i === 0 ? 'home' : source, prefixes),
      navLabel: labels.get(i)?.label ?? null,
      navOrder: labels.get(i)?.order ?? Number.MAX_SAFE_INTEGER,
      previewOrder: previews.get(i) ?? Number.MAX_SAFE_INTEGER,
      date: isPost ? c.signals.date : null,
    };
  });
  for (const [i, p] of pages.entries()) {
    if (i === 0 || p.isPost) continue;
    const posts = new Set(
      p.crawled.signals.previews.map(indexOf).filter((j) => j !== undefined && pages[j]?.isPost),
    );
    // Two previews make an index; one is enough at /blog, where the page would hide the blog's index;
    // so do two dated post cards whose links lead nowhere yet ("#!"), on a site that has posts.
    const cards =
      (p.crawled.signals.previewCards >= 2 || p.crawled.signals.listed >= 2) && pages.some((x) => x.isPost);
    // A listing of one (a tag or author page with a single post) is an index when it says little else.
    const single = posts.size === 1 && p.crawled.signals.listed >= 1 && p.crawled.signals.ownText < 200;
    if (posts.size >= 2 || (posts.size === 1 && p.slug === 'blog') || cards || single) {
      p.isBlogIndex = true;
      p.path = '/blog';
    }
  }
  // A page that only leads to listings (an index of tags) gives way to the blog's index too.
  const indexes = () => new Set(pages.filter((p) => p.isBlogIndex).map((p) => p.crawled));
  for (const p of pages.slice(1)) {
    const to = p.crawled.signals.links.map(indexOf).map((j) => (j === undefined ? undefined : pages[j]));
    const lists = to.filter((x) => x && (indexes().has(x.crawled) || x.isPost));
    if (
      !p.isPost &&
      !p.isBlogIndex &&
      to.length >= 2 &&
      lists.length === to.length &&
      p.crawled.signals.ownText < 200
    ) {
      p.isBlogIndex = true;
      p.path = '/blog';
    }
  }
  const pathByKey = new Map<string, string>();
  for (const p of pages) for (const k of p.crawled.keys) pathByKey.set(k, p.path);
  for (const u of failedUrls) {
    const f = resolve(u, new URL(u));
    if (f) pathByKey.set(pageKey(f), ''); // '' = known to be broken: link text kept, link dropped
  }
  const brand = crawled[0]?.signals.brand;
  const siteName = brand?.name ?? null;
  const logoUrl = brand?.logo ?? null;
  const furniture = furnitureOf(crawled.map((c) => c.signals.blocks));
  return { pages, siteName, logoUrl, pathByKey, unlinked: new Set(), previewExcerpts: new Map(), furniture };
}

/** The conversion context of one planned page: links and post links rewritten to the new site. */
export function pageCtx(
  plan: SitePlan,
  page: PlannedPage,
  assetRef: (u: string) => string,
  backgrounds: ConvertCtx['backgrounds'],
): ConvertCtx {
  const postPaths = new Set(plan.pages.filter((p) => p.isPost).map((p) => p.path));
  const link = (href: string): string | null => {
    const h = href.trim();
    if (!h || h === '#' || h.startsWith('#!')) return null;
    if (h.startsWith('#')) return isSafeUrl(h) ? h : null; // a place on this page, kept as written
    const u = resolve(h, page.crawled.url);
    if (!u) return null;
    const hash = u.hash === '#!' ? '' : u.hash;
    u.hash = '';
    const path = plan.pathByKey.get(pageKey(u));
    if (path === '') return null;
    if (path !== undefined) return isSafeUrl(path + hash) ? path + hash : path;
    // The old site's own pages and files that did not come along: once the address moves here such a
    // link would lead nowhere, so its words stay and the report lists it.
    if (u.origin === page.crawled.url.origin) {
      plan.unlinked.add(u.pathname + u.search);
      return null;
    }
    u.hash = hash;
    return mdUrl(u);
  };
  return {
    link,
    postPath: (href) => {
      const to = link(href);
      return to && postPaths.has(to) ? to : null;
    },
    assetRef,
    backgrounds,
    isPost: page.isPost,
    logo: plan.logoUrl,
    // The site's furniture stays on the home page only.
    furniture: plan.pages[0] === page ? undefined : plan.furniture,
    // The import takes a bounded number of sections in all: each page may use its share of them.
    sectionCap: Math.floor(PORTABLE_CAPS.sections / Math.max(1, plan.pages.length)),
    onPreview: (path, excerpt) => {
      if (!plan.previewExcerpts.has(path)) plan.previewExcerpts.set(path, excerpt);
    },
  };
}

/** "About - Tidewater Notes" -> "About": the part of a <title> that is not the site's name. */
function titlePart(docTitle: string, siteName: string | null): string {
  const parts = docTitle
    .split(/\s+[-–—|·:]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.find((p) => !siteName || !p.toLowerCase().includes(siteName.toLowerCase())) ?? parts[0] ?? '';
}

export function pageTitle(page: PlannedPage, converted: ConvertedPage, siteName: string | null): string {
  const heading = converted.mainHeading;
  const candidates = page.isPost
    ? [heading, page.navLabel, titlePart(converted.docTitle, siteName)]
    : [page.navLabel, page.path === '/' ? 'Home' : null, heading, titlePart(converted.docTitle, siteName)];
  const t = candidates.find((c) => c?.trim()) ?? page.slug;
  return safeText(t.replace(/[<>]/g, ''), 200) || 'Untitled';
}

/** externalKey of a section: the page's source prefix and the section's identity, unique in the page. */
export function sectionKeys(prefix: string, identities: readonly string[]): string[] {
  const used = new Set<string>();
  return identities.map((raw) => {
    const id =
      raw
        .toLowerCase()
        .replace(/[^a-z0-9/-]+/g, '-')
        .replace(/^[-/]+|[-/]+$/g, '')
        .slice(0, 100) || 'section';
    let key = `${prefix.slice(0, 60)}#${id}`;
    for (let n = 2; used.has(key); n++) key = `${prefix.slice(0, 60)}#${id}-${n}`;
    used.add(key);
    return key;
  });
}

/** The asset key of an image URL: its path (stable across re-syncs), made unique. */
export function assetKeys(origin: string): {
  ref: (u: string) => string;
  list: () => PortableSiteV1['assets'];
} {
  const byUrl = new Map<string, string>();
  const used = new Set<string>();
  return {
    ref(u) {
      let k = byUrl.get(u);
      if (!k) {
        const url = new URL(u);
        const raw = `${url.origin === origin ? '' : `${url.hostname}/`}${url.pathname}${url.search ? `-${url.search.slice(1)}` : ''}`;
        const base =
          raw
            .replace(/[^A-Za-z0-9._:/#-]+/g, '-')
            .slice(-100)
            .replace(/^[^A-Za-z0-9]+/, '') || 'image';
        k = base;
        for (let n = 2; used.has(k); n++) k = `${base}-${n}`;
        used.add(k);
        byUrl.set(u, k);
      }
      return `asset:${k}`;
    },
    list: () => [...byUrl].map(([url, key]) => ({ key, url })),
  };
}
