// The conversion context of one page (how its links, post links and images are rewritten) and the
// shape of a converted page; slugs and Markdown-safe link targets shared by the converter and the
// site planner.
import type { AnyNode, Element } from 'domhandler';
import { isSafeUrl } from '../domain/sections/types.js';
import type { LinkFn } from './dom.js';
import type { Draft } from './groups.js';

export type ConvertCtx = {
  link: LinkFn;
  /** The new path of a blog post, when the href (relative to this page) is one. */
  postPath: (href: string) => string | null;
  /** Section reference of an image URL (absolute). */
  assetRef: (imageUrl: string) => string;
  /** Told the summary a blog index shows for a post (the post's excerpt). */
  onPreview?: (postPath: string, excerpt: string) => void;
  backgrounds: Map<AnyNode, string>;
  isPost: boolean;
  /** The brand's logo (absolute address): it becomes the site's logo, never a picture on a page. */
  logo?: string | null;
  /** Fingerprints of outer blocks to leave out: the site's furniture, kept on the home page only. */
  furniture?: ReadonlySet<string>;
  /** Sections this page may hold: a page's cap, or a fair share of the whole import's. */
  sectionCap?: number;
};

export type ConvertedPage = {
  path: string;
  /** The document's <title>, its main heading (h1 or the masthead's), its description. */
  docTitle: string;
  mainHeading: string | null;
  seoDescription: string | null;
  siteName: string | null;
  themeColor: string | null;
  sections: Draft[];
  images: Array<{ url: string; alt: string }>;
  /** A post's summary: its subheading, else its first paragraph. */
  excerpt: string | null;
  actions: string[];
  /** Background images found on elements whose section type has no background. */
  unusedBackgrounds: string[];
  /** Pictures of the page that no section shows, with the reason. */
  unusedImages: Array<{ url: string; reason: string }>;
};

export function slugFor(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  const s = decoded
    .toLowerCase()
    .replace(/\/index\.(html?|php|aspx?)$/, '')
    .replace(/\.(html?|php|aspx?)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return s || 'home';
}

/** An href as a Markdown link target: absolute http(s), never a character a Markdown link breaks on. */
export function mdUrl(u: URL): string | null {
  const href = u.href.replace(/[()'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return isSafeUrl(href) && href.length <= 2000 ? href : null;
}

/** A single-page converter (no site around it): links stay absolute, images are referenced by URL. */
export function standaloneCtx(url: URL, assetRef: (u: string) => string): ConvertCtx {
  return {
    link: (href) => {
      if (!href || href.startsWith('#'))
        return href.length > 1 && isSafeUrl(href) && href !== '#!' ? href : null;
      try {
        const u = new URL(href, url);
        return u.protocol === 'http:' || u.protocol === 'https:' ? mdUrl(u) : null;
      } catch {
        return null;
      }
    },
    postPath: () => null,
    assetRef,
    backgrounds: new Map(),
    isPost: false,
  };
}

/**
 * An <img>'s picture as an absolute http(s) address without fragment, or null. A lazy image's
 * data-src is the picture a visitor sees once it loads (its src is a placeholder).
 */
export function imageUrl(img: Element, base: URL): string | null {
  const src = img.attribs['data-src'] ?? img.attribs['data-lazy-src'] ?? img.attribs.src ?? '';
  if (!src || src.startsWith('data:')) return null;
  try {
    const abs = new URL(src, base);
    if (abs.protocol !== 'http:' && abs.protocol !== 'https:') return null;
    abs.hash = '';
    return abs.href;
  } catch {
    return null;
  }
}
