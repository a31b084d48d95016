// Placeholder text: what add_section writes when it is given no content ("New text."), so the owner
// and the agent can see what still needs real words before the site goes live. Found in every visible
// section of the draft (list_draft_changes) and of a reviewed publish (the approval page).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pages, sections } from '../../db/schema.js';

export const PLACEHOLDER = {
  heading: 'New heading',
  text: 'New text.',
  cta: 'New call to action',
  post: 'New post.',
} as const;
const TEXTS = new Set<string>(Object.values(PLACEHOLDER));

export type Placeholder = {
  pageId: string;
  page: string;
  slug: string;
  sectionId: string;
  type: string;
  /** The field's path in the section content, as update_section_text names it ("body"). */
  field: string;
  text: string;
};

type PageLike = {
  id: string;
  title: string;
  slug: string;
  sections: Array<{ id: string; type: string; content: unknown; hidden: boolean }>;
};

/** Every visible section field that still holds placeholder text, in page and section order. */
export function findPlaceholders(draft: readonly PageLike[]): Placeholder[] {
  const out: Placeholder[] = [];
  for (const page of draft) {
    for (const s of page.sections) {
      if (s.hidden) continue;
      const walk = (v: unknown, path: string) => {
        if (typeof v === 'string') {
          if (TEXTS.has(v.trim())) {
            out.push({
              pageId: page.id,
              page: page.title,
              slug: page.slug,
              sectionId: s.id,
              type: s.type,
              field: path,
              text: v,
            });
          }
        } else if (Array.isArray(v)) {
          for (const [i, x] of v.entries()) walk(x, `${path}.${i}`);
        } else if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
        }
      };
      walk(s.content, '');
    }
  }
  return out;
}

/**
 * The draft's placeholders without reading every section: the database keeps, in each section's row,
 * whether its content holds a placeholder anywhere (sections.placeholder, a generated column with an
 * index of the website's flagged rows), and findPlaceholders names the fields.
 */
export async function draftPlaceholders(db: Db, websiteId: string): Promise<Placeholder[]> {
  const rows = await db
    .select({
      pageId: pages.id,
      title: pages.title,
      slug: pages.slug,
      id: sections.id,
      type: sections.type,
      content: sections.content,
      hidden: sections.hidden,
    })
    .from(sections)
    .innerJoin(pages, sql`${pages.id} = ${sections.pageId}`)
    .where(sql`${sections.websiteId} = ${websiteId} and ${sections.placeholder} and not ${sections.hidden}`)
    .orderBy(pages.position, pages.createdAt, sections.position);
  return findPlaceholders(
    rows.map((r) => ({
      id: r.pageId,
      title: r.title,
      slug: r.slug,
      sections: [{ id: r.id, type: r.type, content: r.content, hidden: r.hidden }],
    })),
  );
}
