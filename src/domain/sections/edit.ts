// Draft section edits (R-TOOL-3): text, add, move, hide, and the advanced editor's
// JSON read, whole-content replace (clientRev-checked) and bounded layout. Each changes the draft only;
// the live site (published_page_digests) is never touched here.
import { newId } from '../../kernel/ids.js';
import type { DirectSiteCtx, SiteCtx } from '../context.js';
import { Refusal, invalidInput } from '../../kernel/errors.js';
import {
  assertOwnAssets,
  bumpDraft,
  findSection,
  insertSections,
  lockPage,
  lockPageSections,
  lockSection,
  renumber,
  saveSection,
} from './store.js';
import { PLACEHOLDER } from './placeholders.js';
import {
  SECTION_SCHEMAS,
  SectionLayout,
  type SectionType,
  TEXT_FIELDS,
  isSectionType,
  parseSectionContent,
} from './types.js';

export type SectionResult = { sectionId: string; type: string; rev: number; draftRevision: number };

/** Validates content for a type or refuses with invalid_input (nothing written). */
function validContent(type: string, content: unknown): Record<string, unknown> {
  const r = parseSectionContent(type, content);
  if (!r.ok)
    throw invalidInput(`Content refused: ${r.message}`, 'Nothing was changed. Fix the content and retry.');
  return r.content;
}

/** update_section_text: only the type's plain-text fields; '' removes an optional field. */
export async function updateSectionText(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; text: Record<string, string> },
): Promise<SectionResult & { fields: string[] }> {
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  const allowed = isSectionType(row.type) ? TEXT_FIELDS[row.type] : [];
  const fields = Object.keys(input.text);
  if (!fields.length) throw invalidInput('Name at least one text field to change.');
  const wrong = fields.filter((f) => !allowed.includes(f));
  if (wrong.length) {
    throw invalidInput(
      `A ${row.type} section has no text field ${wrong.map((f) => `"${f.slice(0, 40)}"`).join(', ')}.`,
      `Its text fields are: ${allowed.join(', ') || 'none'}. Lists and links need replace_section_content.`,
    );
  }
  const next: Record<string, unknown> = { ...row.content };
  const shape = (
    SECTION_SCHEMAS[row.type as SectionType] as { shape: Record<string, { isOptional(): boolean }> }
  ).shape;
  for (const f of fields) {
    const value = input.text[f]!;
    if (value.trim() === '') {
      if (!shape[f]?.isOptional()) throw invalidInput(`The ${f} of a ${row.type} section cannot be empty.`);
      delete next[f];
    } else next[f] = value;
  }
  const content = validContent(row.type, next);
  await assertOwnAssets(ctx, content);
  const saved = await saveSection(ctx, row, { content });
  return { sectionId: row.id, type: row.type, fields, ...saved };
}

/** add_section: a new section at `position` (default: the end), content validated for its type. */
export async function addSection(
  ctx: SiteCtx,
  input: { pageId: string; type: string; content?: Record<string, unknown>; position?: number },
): Promise<SectionResult & { position: number }> {
  await lockPage(ctx, input.pageId);
  if (!isSectionType(input.type)) throw invalidInput(`Unknown section type "${input.type}".`);
  const starter = input.content ?? starterContent(input.type);
  if (!starter) {
    throw invalidInput(`An ${input.type} section needs content: { url, alt } at least.`, 'Pass content.');
  }
  const content = validContent(input.type, starter);
  await assertOwnAssets(ctx, content);
  const existing = await lockPageSections(ctx, input.pageId);
  const position = input.position ?? existing.length;
  if (position > existing.length) {
    throw invalidInput(`position must be between 0 and ${existing.length} for this page.`);
  }
  const id = newId('sec');
  await insertSections(ctx.tx, [
    {
      id,
      websiteId: ctx.website.id,
      pageId: input.pageId,
      type: input.type,
      content,
      layout: {},
      position,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
  ]);
  const ordered: Array<{ id: string; position: number }> = [...existing];
  ordered.splice(position, 0, { id, position });
  await renumber(ctx, ordered);
  return { sectionId: id, type: input.type, rev: 1, position, draftRevision: await bumpDraft(ctx) };
}

/** Minimal valid content when add_section gets none: visible placeholders the owner will replace. */
function starterContent(type: SectionType): Record<string, unknown> | null {
  const starters: Record<SectionType, Record<string, unknown> | null> = {
    hero: { heading: PLACEHOLDER.heading },
    text: { body: PLACEHOLDER.text },
    image: null,
    gallery: { images: [] },
    features: { items: [] },
    testimonials: { items: [] },
    pricing: { plans: [] },
    faq: { items: [] },
    cta: { heading: PLACEHOLDER.cta, buttonLabel: 'Contact us', buttonUrl: '/contact' },
    contact: { heading: 'Contact us', showForm: true },
    blog_body: { body: PLACEHOLDER.post },
  };
  return starters[type];
}

/** move_section: `position` is the 0-based index after the move. */
export async function moveSection(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; position: number },
): Promise<SectionResult & { position: number; from: number }> {
  await lockPage(ctx, input.pageId);
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  const list = await lockPageSections(ctx, input.pageId);
  if (input.position >= list.length) {
    throw invalidInput(`position must be between 0 and ${list.length - 1} for this page.`);
  }
  const from = list.findIndex((s) => s.id === row.id);
  const [moved] = list.splice(from, 1);
  list.splice(input.position, 0, moved!);
  await renumber(ctx, list);
  const saved = await saveSection(ctx, { ...row, position: input.position }, {});
  return { sectionId: row.id, type: row.type, position: input.position, from, ...saved };
}

export async function setSectionHidden(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; hidden: boolean },
): Promise<SectionResult & { hidden: boolean }> {
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  const saved = await saveSection(ctx, row, { hidden: input.hidden });
  return { sectionId: row.id, type: row.type, hidden: input.hidden, ...saved };
}

/** get_section_json (advanced editor): the section's full draft JSON. */
export async function getSectionJson(ctx: DirectSiteCtx, input: { pageId: string; sectionId: string }) {
  const row = await findSection(ctx, input.pageId, input.sectionId);
  return { sectionId: row.id, type: row.type, content: row.content, layout: row.layout, rev: row.rev };
}

/** replace_section_content (advanced editor): same type, schema-validated, only on the current rev. */
export async function replaceSectionContent(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; content: Record<string, unknown>; clientRev: number },
): Promise<SectionResult> {
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  if (row.rev !== input.clientRev) {
    throw new Refusal(
      'stale_revision',
      `The section changed since you read it (your rev ${input.clientRev}, current rev ${row.rev}).`,
      'Call get_section_json again, re-apply your change to the fresh content and send the new rev.',
    );
  }
  const content = validContent(row.type, input.content);
  await assertOwnAssets(ctx, content);
  const saved = await saveSection(ctx, row, { content });
  return { sectionId: row.id, type: row.type, ...saved };
}

/** set_section_layout (advanced editor): bounded tokens only; omitted tokens are cleared. */
export async function setSectionLayout(
  ctx: SiteCtx,
  input: { pageId: string; sectionId: string; layout: Record<string, unknown> },
): Promise<SectionResult & { layout: SectionLayout }> {
  const row = await lockSection(ctx, input.pageId, input.sectionId);
  const r = SectionLayout.safeParse(input.layout);
  if (!r.success) throw invalidInput('Layout accepts only width, paddingY, hideOnMobile and hideOnDesktop.');
  const saved = await saveSection(ctx, row, { layout: r.data });
  return { sectionId: row.id, type: row.type, layout: r.data, ...saved };
}
