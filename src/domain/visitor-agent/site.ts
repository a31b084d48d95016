// What a visitor's AI assistant may read of a website (docs/visitor-agents.md): the published snapshot
// only, through the same loader the published site renders from (src/domain/sites/view.ts), and only
// while the site is live and the owner has not switched visitors' assistants off. It holds nothing
// about anyone but the business: no leads, bookings, contacts, documents or members.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { products, services, websites } from '../../db/schema.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { money } from '../money.js';
import { showsContactForm } from '../crm/contact-form.js';
import { type SiteView, loadSiteView, pageAt, sitePathOf } from '../sites/view.js';
import type { SnapshotPage } from '../sites/draft.js';

export type PublicService = {
  serviceId: string;
  name: string;
  description: string;
  durationMinutes: number | null;
  price: string | null;
  /** A visitor's assistant may ask to book it (a public service with a duration). */
  bookable: boolean;
};
export type PublicProduct = { name: string; description: string; price: string };

export type VisitorSite = {
  view: SiteView;
  services: PublicService[];
  products: PublicProduct[];
};

/** The live site for visitors' assistants, or null: unpublished, deleted, or switched off by the owner. */
export async function visitorSite(db: Db, websiteId: string): Promise<VisitorSite | null> {
  const view = await loadSiteView(db, websiteId, 'published');
  if (!view?.visitorAgents) return null;
  const serviceRows = await db
    .select()
    .from(services)
    .where(and(eq(services.websiteId, websiteId), eq(services.status, 'public')))
    .orderBy(asc(services.name), asc(services.id));
  const productRows = await db
    .select()
    .from(products)
    .where(and(eq(products.websiteId, websiteId), eq(products.status, 'public')))
    .orderBy(asc(products.name), asc(products.id));
  return {
    view,
    services: serviceRows.map((s) => ({
      serviceId: s.id,
      name: s.name,
      description: s.description,
      durationMinutes: s.durationMinutes,
      price: s.priceCents ? money(s.priceCents, s.currency) : null,
      bookable: (s.durationMinutes ?? 0) > 0,
    })),
    products: productRows.map((p) => ({
      name: p.name,
      description: p.description,
      price: money(p.priceCents, p.currency),
    })),
  };
}

/** Switches the site's endpoint for visitors' assistants on or off; false when there is no such site. */
/**
 * The owner's switch for visitors' assistants, called through the person gate (site.visitor_agents):
 * off, the live site's /_api/mcp answers 404 and its pages stop linking to it.
 */
export async function setVisitorAgents(ctx: SiteCtx, on: boolean): Promise<void> {
  await ctx.tx.update(websites).set({ visitorAgents: on }).where(eq(websites.id, ctx.website.id));
  await recordOwnerAction(
    ctx,
    'visitor_agents',
    on ? "Let visitors' AI assistants use the live site" : "Switched visitors' AI assistants off",
  );
}

const visible = (page: SnapshotPage) => page.sections.filter((s) => !s.hidden);

/** The contact details the live site itself shows (its visible contact sections), without repeats. */
export function shownContacts(view: SiteView) {
  const emails = new Set<string>();
  const phones = new Set<string>();
  const addresses = new Set<string>();
  for (const page of view.pages) {
    for (const s of visible(page)) {
      if (s.type !== 'contact') continue;
      const c = s.content as { email?: string; phone?: string; address?: string };
      if (c.email) emails.add(c.email);
      if (c.phone) phones.add(c.phone);
      if (c.address) addresses.add(c.address);
    }
  }
  return { emails: [...emails], phones: [...phones], addresses: [...addresses] };
}

/** What the business says it is: the home page's description, else its first hero's subheading. */
export function businessDescription(view: SiteView): string {
  const home = pageAt(view, '');
  if (home?.seoDescription) return home.seoDescription;
  for (const page of view.pages) {
    const hero = visible(page).find((s) => s.type === 'hero');
    const sub = (hero?.content as { subheading?: string } | undefined)?.subheading;
    if (sub) return sub;
  }
  return '';
}

/** The site's pages as visitors address them. */
export function pageIndex(view: SiteView) {
  return view.pages.map((p) => ({ path: sitePathOf(view, p), title: p.title, kind: p.kind }));
}

/** Whether the live site shows a contact form: only then may an assistant send the business a message. */
export function takesMessages(view: SiteView): boolean {
  return view.pages.some((p) => p.sections.some(showsContactForm));
}
