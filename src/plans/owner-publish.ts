// Publish and unpublish by the owner in the console, without a plan: the person is the approver. The
// owner sees the same review the publish approval shows (publishSubjectNow and the publish kind's own
// review), and the publish is pinned to the revision shown: the form carries it back, and if the draft
// moved on in between nothing is published and the owner is shown the new review instead. Publishing
// itself is the domain function the plan executor calls (publishDraft, unpublishSite).
import { recordOwnerAction } from '../domain/activity/owner.js';
import { type PersonSite, asPerson } from '../domain/as-person.js';
import { timeZoneOf } from '../domain/crm/booking-request.js';
import type { Services, SiteCtx } from '../domain/context.js';
import { publishDraft, unpublishSite } from '../domain/sites/publish.js';
import { Refusal } from '../kernel/errors.js';
import { lockedSite, publishKind, publishSubjectNow, unpublishKind } from './kinds/publish.js';
import type { PlanReview } from './kinds/types.js';
import { plural } from '../kernel/plural.js';

export type OwnerPublishView = {
  siteName: string;
  /** The reviewed revision; the publish form posts it back. */
  revision: string;
  review: PlanReview;
  nothingToPublish: boolean;
  live: boolean;
  /** The website's time zone, for the times the review shows. */
  timeZone: string;
};

async function viewNow(ctx: SiteCtx, person: PersonSite): Promise<OwnerPublishView> {
  const { site, subject, pinnedRevision, nothingToPublish } = await publishSubjectNow(ctx);
  const review = publishKind.review(subject, { siteName: site.name });
  return {
    siteName: site.name,
    revision: pinnedRevision,
    review: {
      ...review,
      facts: [
        {
          label: 'What happens',
          value:
            'The draft as reviewed here becomes the live website. If the draft changes before you press Publish, nothing is published and you are shown the new review.',
        },
      ],
      // The approval page's preview is of a plan; here the draft preview is the reviewed draft.
      preview: false,
    },
    nothingToPublish,
    live: site.publishedRev !== null,
    timeZone: timeZoneOf(person.config),
  };
}

export function ownerPublishView(services: Services, userId: string, websiteId: string) {
  return asPerson(services, userId, 'site.publish', websiteId, viewNow);
}

export type OwnerPublishResult = { published: true } | { published: false; view: OwnerPublishView };

/** Publishes the draft if it is still exactly the revision the owner was shown. */
export function ownerPublish(
  services: Services,
  userId: string,
  websiteId: string,
  shownRevision: string,
): Promise<OwnerPublishResult> {
  return asPerson(services, userId, 'site.publish', websiteId, async (ctx, person) => {
    const view = await viewNow(ctx, person); // locks the row: nothing moves until commit
    if (view.revision !== shownRevision) return { published: false, view };
    if (view.nothingToPublish) {
      throw new Refusal('conflict', 'The draft already matches the live site; there is nothing to publish.');
    }
    const snapshot = await publishDraft(ctx.tx, ctx.website.id, ctx.now);
    await recordOwnerAction(
      ctx,
      'publish',
      `The owner published the draft (revision ${snapshot.rev}, ${plural(snapshot.pages, 'page')}).`,
    );
    return { published: true };
  });
}

/** What taking the site offline means, in the unpublish plan's own words. */
export function ownerUnpublishView(services: Services, userId: string, websiteId: string) {
  return asPerson(services, userId, 'site.publish', websiteId, async (ctx, person) => {
    const site = await lockedSite(ctx);
    return {
      siteName: site.name,
      timeZone: timeZoneOf(person.config),
      live: site.publishedRev !== null,
      review: unpublishKind.review(
        {
          siteName: site.name,
          publishedAt: site.publishedRev === null ? null : (site.publishedAt?.toISOString() ?? null),
        },
        { siteName: site.name },
      ),
    };
  });
}

export function ownerUnpublish(services: Services, userId: string, websiteId: string): Promise<void> {
  return asPerson(services, userId, 'site.publish', websiteId, async (ctx) => {
    const site = await lockedSite(ctx);
    if (site.publishedRev === null) {
      throw new Refusal('conflict', 'The site is not live; there is nothing to unpublish.');
    }
    await unpublishSite(ctx.tx, ctx.website.id, ctx.now);
    await recordOwnerAction(ctx, 'unpublish', 'The owner took the site offline; the draft is kept.');
  });
}
