// The review of a publish as the draft stands now, read from what differs: the changes from the
// draft's and the live site's digests (as list_draft_changes reads them), then the full content of the
// changed pages alone on each side, the live ones from the process's parsed copy of the snapshot
// (src/domain/sites/view.ts), and the draft's placeholders and empty pages picked by the database. On a
// large site with one changed section this reads one page of each, not every page twice.
import type { Db } from '../../db/client.js';
import { draftPlaceholders } from '../sections/placeholders.js';
import { emptyDraftPages, loadDraftPages } from '../sites/draft.js';
import { publishedPages } from '../sites/view.js';
import type { DraftChange } from './draft-changes.js';
import { type PublishReview, reviewChanged } from './publish-review.js';
import { draftChanges } from './read.js';

export type LiveRevision = { id: string; publishedRev: number | null; publishedAt: Date | null };

export async function publishReviewNow(
  tx: Db,
  website: LiveRevision,
): Promise<{ changes: DraftChange[]; review: PublishReview }> {
  // One after the other: a transaction is one connection (node-postgres must not interleave queries).
  const changes = await draftChanges(tx, website);
  const changed = new Set(changes.map((c) => c.pageId));
  const draft = await loadDraftPages(tx, website.id, [...changed]);
  const live =
    website.publishedRev === null
      ? null
      : await publishedPages(tx, website.id, website.publishedRev, website.publishedAt);
  const placeholders = await draftPlaceholders(tx, website.id);
  const emptyPages = await emptyDraftPages(tx, website.id);
  const review = reviewChanged(draft, live && { pages: live.filter((p) => changed.has(p.id)) }, {
    placeholders,
    emptyPages,
  });
  return { changes, review };
}
