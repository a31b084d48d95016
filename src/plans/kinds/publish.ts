// Plan kinds `publish` and `unpublish` (R-PLAN-7): pinned to the site's draft (publish) or to the
// published snapshot (unpublish). publish_site itself always refuses; these are the only way live.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { websites } from '../../db/schema.js';
import type { SiteCtx } from '../../domain/context.js';
import { Refusal } from '../../kernel/errors.js';
import { PublishReview } from '../../domain/pages/publish-review.js';
import { publishReviewNow } from '../../domain/pages/review-now.js';
import { publishDraft, unpublishSite } from '../../domain/sites/publish.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';
import { plural } from '../../kernel/plural.js';

const publishing = { scope: 'publish', area: 'publishing', role: 'editor' } as const;

const PublishSubject = z.object({
  siteName: z.string(),
  changes: z.array(z.object({ page: z.string(), change: z.string(), description: z.string() })),
  /** The change itself, field by field, computed at prepare time (absent in plans made before). */
  review: PublishReview.optional(),
});
export type PublishSubject = z.infer<typeof PublishSubject>;

/**
 * The website's row without its snapshot, locked: what publish and unpublish plans are pinned to and
 * describe, kept still until the transaction ends.
 */
export async function lockedSite(ctx: SiteCtx) {
  const [site] = await ctx.tx
    .select({
      id: websites.id,
      name: websites.name,
      draftRev: websites.draftRev,
      publishedRev: websites.publishedRev,
      publishedAt: websites.publishedAt,
    })
    .from(websites)
    .where(eq(websites.id, ctx.website.id))
    .for('update');
  if (!site) throw new Error('website vanished');
  return site;
}

export type Site = Awaited<ReturnType<typeof lockedSite>>;

/**
 * The draft revision a publish is pinned to: the website's draft counter, which every change to its
 * draft pages or sections moves on in the change's own statement or transaction (draftBump,
 * src/domain/sites/draft-revision.ts), so it names one content of the draft exactly (R-DATA-3) without
 * reading the draft. test/plans/draft-revision.test.ts makes every draft write show that it moves it.
 */
function draftRevisionOf(rev: number): string {
  return `draft:${rev}`;
}

/** The draft counter of a pin made by draftRevisionOf; null for any other (older plans' included). */
export function pinnedDraftRev(pinned: string): number | null {
  const m = /^draft:(\d+)$/.exec(pinned);
  return m ? Number(m[1]) : null;
}

async function draftRevision(ctx: SiteCtx): Promise<string> {
  return draftRevisionOf((await lockedSite(ctx)).draftRev);
}

/**
 * The published snapshot revision (what unpublish takes offline): the snapshot's name, its revision and
 * the time it went live, which every publish sets and nothing else writes (src/domain/sites/view.ts
 * names its parsed copies the same way), so the snapshot itself is not read.
 */
function publishedRevisionOf(site: Site): string {
  if (site.publishedRev === null) return 'published:none';
  return `published:${site.publishedRev}:${site.publishedAt?.getTime() ?? 0}`;
}

export const publishKind = defineKind<PublishSubject>({
  kind: 'publish',
  rule: { name: 'confirm_pending_action (publish)', ...publishing },
  subject: PublishSubject,
  revision: (ctx) => draftRevision(ctx),
  review: (s) => ({
    title: `Publish the draft of ${s.siteName}`,
    facts: [
      {
        label: 'What happens',
        value:
          'The draft as reviewed here becomes the live website. If the draft changes before your assistant carries this out, nothing is published.',
      },
    ],
    list: { heading: 'Changes that will go live', items: s.changes.map((c) => c.description), empty: 'None' },
    ...(s.review ? { publish: s.review } : {}),
    // The preview shows the pinned revision while the draft or the live site is still at it
    // (reviewedView, src/plans/approve.ts); an open plan's page hides it once its draft moved on.
    preview: true,
  }),
  async execute(ctx) {
    const snapshot = await publishDraft(ctx.tx, ctx.website.id, ctx.now);
    return { published: true, publishedRevision: snapshot.rev, pages: snapshot.pages };
  },
});

/**
 * The draft as it is now, locked: the revision a publish is pinned to and the subject its review shows.
 * The approval rail (prepare_publish) and the owner's console (src/plans/owner-publish.ts) both use it,
 * so both show the same review of the same revision.
 */
export async function publishSubjectNow(ctx: SiteCtx): Promise<{
  site: { name: string; publishedRev: number | null };
  subject: PublishSubject;
  pinnedRevision: string;
  nothingToPublish: boolean;
}> {
  // The locked row serves the pin; the changes and the review read what differs (review-now.ts).
  const site = await lockedSite(ctx);
  const { changes, review } = await publishReviewNow(ctx.tx, site);
  const subject: PublishSubject = {
    siteName: site.name,
    changes: changes.map((c) => ({ page: c.page, change: c.change, description: c.description })),
    review,
  };
  return {
    site,
    subject,
    pinnedRevision: draftRevisionOf(site.draftRev),
    nothingToPublish: site.publishedRev !== null && changes.length === 0,
  };
}

export async function preparePublish(ctx: SiteCtx): Promise<PlanTicket> {
  const { site, subject, pinnedRevision, nothingToPublish } = await publishSubjectNow(ctx);
  if (nothingToPublish) {
    throw new Refusal(
      'conflict',
      'The draft already matches the live site; there is nothing to publish.',
      'Edit the draft first (list_draft_changes shows what is not live yet).',
    );
  }
  return createPlan(ctx, 'publish', {
    subject,
    pinnedRevision,
    summary: `Publish the draft of ${site.name} (${plural(subject.changes.length, 'change')}) to the live site.`,
  });
}

const UnpublishSubject = z.object({ siteName: z.string(), publishedAt: z.string().nullable() });
type UnpublishSubject = z.infer<typeof UnpublishSubject>;

export const unpublishKind = defineKind<UnpublishSubject>({
  kind: 'unpublish',
  rule: { name: 'confirm_pending_action (unpublish)', ...publishing },
  subject: UnpublishSubject,
  revision: async (ctx) => publishedRevisionOf(await lockedSite(ctx)),
  review: (s) => ({
    title: `Take ${s.siteName} offline`,
    facts: [
      { label: 'What goes offline', value: `Every page and blog post of ${s.siteName}'s live website.` },
      {
        label: 'What visitors see instead',
        value:
          'A “Not found” page at every address of the site; its contact and booking forms stop taking requests.',
      },
      { label: 'What is kept', value: 'The draft, with all its pages, so you can publish again later.' },
    ],
    ...(s.publishedAt ? { when: [{ label: 'Live since', at: s.publishedAt }] } : {}),
  }),
  async execute(ctx) {
    await unpublishSite(ctx.tx, ctx.website.id, ctx.now);
    return { published: false };
  },
});

export async function prepareUnpublish(ctx: SiteCtx): Promise<PlanTicket> {
  const site = await lockedSite(ctx);
  if (site.publishedRev === null) {
    throw new Refusal('conflict', 'The site is not live; there is nothing to unpublish.');
  }
  return createPlan(ctx, 'unpublish', {
    subject: {
      siteName: site.name,
      publishedAt: site.publishedRev === null ? null : (site.publishedAt?.toISOString() ?? null),
    },
    pinnedRevision: publishedRevisionOf(site),
    summary: `Take ${site.name} offline (the draft is kept).`,
  });
}
