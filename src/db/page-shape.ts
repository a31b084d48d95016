// The one shape of a page with its sections in order. The draft as loaded, the live site (a row per
// page, published_page_digests.page), what list_draft_changes compares and what the site renders all
// use it.

/** A section as a page carries it: in the draft as loaded, the published snapshot and every rendering. */
export type PageSection = { id: string; type: string; content: unknown; layout: unknown; hidden: boolean };

/** A page and its sections; list_draft_changes compares sections with a digest in place of content (`S`). */
export type PageWithSections<S = PageSection> = {
  id: string;
  slug: string;
  title: string;
  kind: string;
  /** Blog post excerpt (absent in snapshots taken before it was recorded). */
  excerpt?: string | null;
  /** When the page was created, ISO 8601: a post's date (absent in snapshots taken before it was recorded). */
  createdAt?: string;
  seoTitle: string | null;
  seoDescription: string | null;
  sections: S[];
};

/** What publishing stores: the draft revision it copied, and the pages. */
export type PublishedSnapshot = { rev: number; pages: PageWithSections[] };
