// What a site path shows, for every rendering of a site: the live site, the draft preview and the
// reviewed preview of an approval. One navigation (pages, Blog when there are posts, Book when the
// site takes booking requests) and one choice of page per path, so a preview looks as the site will.
import type { SiteView } from '../../domain/sites/view.js';
import {
  type BookingOffer,
  type RenderSite,
  renderBlogIndex,
  renderBookingIndex,
  renderBookingPage,
  renderPage,
} from './page.js';
import { pageAt, sitePathOf } from '../../domain/sites/view.js';

/** The site's chrome: its name, navigation, brand and time zone. */
export function siteChrome(
  view: SiteView,
  offer: BookingOffer | null,
): Pick<RenderSite, 'siteName' | 'nav' | 'hasPosts' | 'bookable' | 'brand' | 'timeZone'> {
  return {
    siteName: view.name,
    nav: view.pages.filter((p) => p.kind === 'page').map((p) => ({ slug: p.slug, title: p.title })),
    hasPosts: view.pages.some((p) => p.kind === 'post'),
    bookable: Boolean(offer?.services.length) && !view.pages.some((p) => p.slug === 'book'),
    brand: view.brand,
    timeZone: view.timeZone,
  };
}

/**
 * The page at `path` ("" is home) as HTML, with the path a visit to it is counted under; null when
 * there is no such page. The site's own pages named "blog" or "book" win over the generated ones.
 */
export function renderSitePath(
  site: RenderSite,
  view: SiteView,
  offer: BookingOffer | null,
  path: string,
): { html: string; visit: string } | null {
  const own = (slug: string) => view.pages.some((p) => p.slug === slug);
  if (path === 'book' && !own('book')) {
    return offer?.services.length ? { html: renderBookingIndex(site, offer), visit: '/book' } : null;
  }
  const booking = /^book\/([A-Za-z0-9_]{1,64})$/.exec(path);
  if (booking) {
    if (!offer?.services.some((s) => s.id === booking[1])) return null;
    return { html: renderBookingPage(site, offer, booking[1]!), visit: `/${path}` };
  }
  if (path === 'blog' && !own('blog')) {
    const posts = view.pages.filter((p) => p.kind === 'post');
    return { html: renderBlogIndex(site, posts), visit: '/blog' };
  }
  const found = pageAt(view, path);
  return found ? { html: renderPage(site, found), visit: sitePathOf(view, found) } : null;
}
