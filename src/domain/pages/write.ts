// Draft page edits (R-TOOL-3): search title/description, new pages and blog posts.
// Draft only: the published snapshot changes only through the reviewed publish plan.
import { and, eq, max, sql } from 'drizzle-orm';
import { newId } from '../../kernel/ids.js';
import { pages } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { Refusal, invalidInput } from '../../kernel/errors.js';
import { assertOwnAssets, bumpDraft, insertSections, lockPage } from '../sections/store.js';
import { SafeText, parseSectionContent } from '../sections/types.js';
import { insertPages } from './insert.js';

const SeoTitle = SafeText(70);
const SeoDescription = SafeText(320);
const Title = SafeText(200);
const Excerpt = SafeText(300);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

function checked<T>(
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
  v: unknown,
  what: string,
) {
  const r = schema.safeParse(v);
  if (!r.success)
    throw invalidInput(`The ${what} is not accepted: plain text or Markdown only, within its length.`);
  return r.data as T;
}

/** Lower-case, ASCII, hyphenated; accents folded ("Café Olé" -> "cafe-ole"). */
function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

export async function updatePageSeo(
  ctx: SiteCtx,
  input: { pageId: string; title?: string; description?: string },
) {
  const page = await lockPage(ctx, input.pageId);
  if (input.title === undefined && input.description === undefined) {
    throw invalidInput('Give a title, a description or both.');
  }
  const set: Partial<typeof pages.$inferInsert> = { rev: page.rev + 1, updatedAt: ctx.now };
  const fields: string[] = [];
  if (input.title !== undefined) {
    set.seoTitle = input.title.trim() ? checked<string>(SeoTitle, input.title.trim(), 'search title') : null;
    fields.push('title');
  }
  if (input.description !== undefined) {
    const d = input.description.trim();
    set.seoDescription = d ? checked<string>(SeoDescription, d, 'search description') : null;
    fields.push('description');
  }
  await ctx.tx.update(pages).set(set).where(eq(pages.id, page.id));
  return {
    pageId: page.id,
    fields,
    seo: {
      title: set.seoTitle !== undefined ? set.seoTitle : page.seoTitle,
      description: set.seoDescription !== undefined ? set.seoDescription : page.seoDescription,
    },
    draftRevision: await bumpDraft(ctx),
  };
}

/** Inserts a page row at the end of the site; a slug already in use is a conflict (nothing written). */
async function insertPage(
  ctx: SiteCtx,
  p: { title: string; slug: string; kind: 'page' | 'post'; excerpt?: string | null },
): Promise<{ id: string; slug: string }> {
  if (!SLUG.test(p.slug) || p.slug.length > 120) {
    throw invalidInput(
      `"${p.slug.slice(0, 60)}" is not a usable address.`,
      'Use lower-case letters, digits and hyphens, e.g. "opening-hours".',
    );
  }
  // Serialise page creation per site (two agents creating "news" at once get one conflict, not a 500).
  await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`pages:${ctx.website.id}`}))`);
  const used = async (slug: string) =>
    (
      await ctx.tx
        .select({ id: pages.id })
        .from(pages)
        .where(and(eq(pages.websiteId, ctx.website.id), eq(pages.slug, slug)))
    ).length > 0;
  let slug = p.slug;
  // A post's address comes from its title, so a repeat title gets "-2", "-3"…; a page's slug is asked for.
  for (let n = 2; await used(slug); n++) {
    if (p.kind === 'page' || n > 50) {
      throw new Refusal(
        'conflict',
        `The address /${slug} is already used by another page.`,
        'Pass another slug.',
      );
    }
    slug = `${p.slug}-${n}`;
  }
  const [last] = await ctx.tx
    .select({ n: max(pages.position) })
    .from(pages)
    .where(eq(pages.websiteId, ctx.website.id));
  const id = newId('page');
  await insertPages(ctx.tx, [
    {
      id,
      websiteId: ctx.website.id,
      slug,
      title: p.title,
      kind: p.kind,
      excerpt: p.excerpt ?? null,
      seoTitle: p.title.slice(0, 70),
      position: (last?.n ?? -1) + 1,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
  ]);
  return { id, slug };
}

function previewUrl(ctx: SiteCtx, slug: string) {
  return `${ctx.services.config.baseUrl}/editor/${ctx.website.id}/${slug}`;
}

export async function createPage(ctx: SiteCtx, input: { title: string; slug?: string }) {
  const title = checked<string>(Title, input.title.trim(), 'title');
  if (!title) throw invalidInput('A page needs a title.');
  const slug = input.slug?.trim().replace(/^\/+|\/+$/g, '') || slugify(title);
  if (!slug) throw invalidInput('Could not make an address from that title.', 'Pass a slug.');
  const { id: pageId } = await insertPage(ctx, { title, slug, kind: 'page' });
  return { pageId, slug, title, previewUrl: previewUrl(ctx, slug), draftRevision: await bumpDraft(ctx) };
}

export async function createBlogPost(ctx: SiteCtx, input: { title: string; body: string; excerpt?: string }) {
  const title = checked<string>(Title, input.title.trim(), 'title');
  if (!title) throw invalidInput('A blog post needs a title.');
  const excerpt = input.excerpt?.trim() ? checked<string>(Excerpt, input.excerpt.trim(), 'excerpt') : null;
  const body = parseSectionContent('blog_body', { body: input.body });
  if (!body.ok) throw invalidInput(`The post body is not accepted: ${body.message}`, 'Nothing was changed.');
  await assertOwnAssets(ctx, body.content);
  const base = slugify(title);
  if (!base) throw invalidInput('Could not make an address from that title.');
  const { id: pageId, slug } = await insertPage(ctx, { title, slug: `blog/${base}`, kind: 'post', excerpt });
  const sectionId = newId('sec');
  await insertSections(ctx.tx, [
    {
      id: sectionId,
      websiteId: ctx.website.id,
      pageId,
      type: 'blog_body',
      content: body.content,
      position: 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
  ]);
  return {
    pageId,
    sectionId,
    slug,
    title,
    previewUrl: previewUrl(ctx, slug),
    draftRevision: await bumpDraft(ctx),
  };
}
