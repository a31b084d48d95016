// Where each draft page stands against the live site, for the owner's at-a-glance views (the site
// overview app): new (not live yet), changed (live, with changes not yet published) or live as it is.
// Pure: reads the changes diffDraft found.
import type { DraftChange } from './draft-changes.js';

export type PageStatus = 'new' | 'changed' | 'live';

export function pageStatus(pageId: string, changes: readonly DraftChange[]): PageStatus {
  const own = changes.filter((c) => c.pageId === pageId);
  if (own.some((c) => c.change === 'page_added')) return 'new';
  return own.length ? 'changed' : 'live';
}

/** The sections of a page that differ from the live site (edited, new, moved, hidden or shown). */
export function changedSections(pageId: string, changes: readonly DraftChange[]): string[] {
  const ids = changes
    .filter((c) => c.pageId === pageId && c.sectionId && c.change !== 'section_removed')
    .map((c) => c.sectionId!);
  return [...new Set(ids)];
}
