// content:write tools (R-TOOL-3, R-TOOL-4): draft edits of sections and pages, and the
// advanced editor (JSON read, whole-content replace, layout) behind the workspace's grant. Definitions
// only: the rules live in src/domain/sections/ and src/domain/pages/. Every write changes the draft only.
import { z } from 'zod';
import { createBlogPost, createPage, updatePageSeo } from '../../domain/pages/write.js';
import { SUBSET_DESCRIPTION } from '../../domain/sections/markdown-subset.js';
import {
  addSection,
  getSectionJson,
  moveSection,
  replaceSectionContent,
  setSectionHidden,
  setSectionLayout,
  updateSectionText,
} from '../../domain/sections/edit.js';
import {
  MARKDOWN_FIELDS,
  ParamSectionType,
  SECTION_TYPES,
  SectionLayout,
} from '../../domain/sections/types.js';
import { ParamId, defineTool } from '../define-tool.js';

const content = { scope: 'content:write', area: 'content', role: 'editor' } as const;
const EDIT = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
const CREATE = { ...EDIT, idempotentHint: false } as const;

const PageId = ParamId.describe('Page id from list_pages.');
const SectionId = ParamId.describe('Section id from list_pages or get_page.');
const Json = z.record(z.string(), z.unknown());
const SectionResult = z.object({
  sectionId: z.string(),
  type: z.string(),
  rev: z.number().describe('The section revision after this edit.'),
  draftRevision: z.number(),
});
const DRAFT_NOTE = 'Changes the draft only; the live site changes when the owner approves a publish.';

/** The Markdown subset the site renders, as agents are told it (src/domain/sections/markdown-subset.ts). */
const MARKDOWN = SUBSET_DESCRIPTION;
const fieldsOf = (kind: 'markdown' | 'inline') =>
  SECTION_TYPES.flatMap((t) =>
    Object.entries(MARKDOWN_FIELDS[t])
      .filter(([, k]) => k === kind)
      .map(([path]) => `${t}.${path}`),
  ).join(', ');
/** Which section fields are Markdown, generated from the same table the renderer reads. */
const SECTION_MARKDOWN = `Markdown fields: ${fieldsOf('markdown')}; one line of Markdown (no blocks): ${fieldsOf('inline')}; every other field is plain text. ${MARKDOWN}`;

export const update_section_text = defineTool({
  name: 'update_section_text',
  title: 'Update section text',
  description: `Edits the text fields of one draft section (e.g. heading, subheading, body, buttonLabel; which fields depends on the section type — list_pages/get_page show types). ${SECTION_MARKDOWN} An empty string removes an optional field. ${DRAFT_NOTE}`,
  ...content,
  annotations: EDIT,
  input: z.object({
    pageId: PageId,
    sectionId: SectionId,
    text: z
      .record(z.string().max(40), z.string().max(20_000))
      .describe('Field name -> new text, e.g. { "heading": "Fresh bread daily" }.'),
  }),
  output: SectionResult.extend({ fields: z.array(z.string()) }),
  activity: (_i, d) => `Edited draft text of a ${d?.type ?? ''} section (${d?.fields.join(', ') ?? ''})`,
  run: (ctx, input) => updateSectionText(ctx, input),
});

export const update_page_seo = defineTool({
  name: 'update_page_seo',
  title: 'Update page SEO',
  description: `Sets a draft page's search title (≤ 70 characters) and/or search description (≤ 320). An empty string clears it. ${DRAFT_NOTE}`,
  ...content,
  annotations: EDIT,
  input: z.object({
    pageId: PageId,
    title: z.string().max(200).optional().describe('Search result title.'),
    description: z.string().max(1000).optional().describe('Search result description.'),
  }),
  output: z.object({
    pageId: z.string(),
    fields: z.array(z.string()),
    seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
    draftRevision: z.number(),
  }),
  activity: (_i, d) => `Edited draft search ${d?.fields.join(' and ') ?? 'fields'} of a page`,
  run: (ctx, input) => updatePageSeo(ctx, input),
});

export const add_section = defineTool({
  name: 'add_section',
  title: 'Add section',
  description: `Adds a section to a draft page. Types: ${SECTION_TYPES.join(', ')}. content is validated against the type's schema (URL fields: https/http, site paths or library asset ids; no HTML, CSS or scripts; Markdown fields as update_section_text says). Omit content for placeholder text ("New text."), which list_draft_changes flags until it is replaced. position is the 0-based index (default: the end). ${DRAFT_NOTE}`,
  ...content,
  annotations: CREATE,
  idempotent: 'key',
  input: z.object({
    pageId: PageId,
    type: ParamSectionType,
    content: Json.optional().describe('Section content for the type; see get_page for examples.'),
    position: z.number().int().min(0).optional(),
  }),
  output: SectionResult.extend({ position: z.number() }),
  activity: (i, d) => `Added a ${i.type} section to a draft page at position ${d?.position ?? '?'}`,
  run: (ctx, input) => addSection(ctx, input),
});

export const move_section = defineTool({
  name: 'move_section',
  title: 'Move section',
  description: `Moves a section within its draft page; position is the 0-based index after the move. ${DRAFT_NOTE}`,
  ...content,
  annotations: EDIT,
  input: z.object({ pageId: PageId, sectionId: SectionId, position: z.number().int().min(0) }),
  output: SectionResult.extend({ position: z.number(), from: z.number() }),
  activity: (_i, d) => `Moved a ${d?.type ?? ''} section from position ${d?.from} to ${d?.position}`,
  run: (ctx, input) => moveSection(ctx, input),
});

export const set_section_hidden = defineTool({
  name: 'set_section_hidden',
  title: 'Hide or show section',
  description: `Hides a section from the page (kept in the draft) or shows it again. ${DRAFT_NOTE}`,
  ...content,
  annotations: EDIT,
  input: z.object({ pageId: PageId, sectionId: SectionId, hidden: z.boolean() }),
  output: SectionResult.extend({ hidden: z.boolean() }),
  activity: (i, d) => `${i.hidden ? 'Hid' : 'Showed'} a ${d?.type ?? ''} section in the draft`,
  run: (ctx, input) => setSectionHidden(ctx, input),
});

export const create_page = defineTool({
  name: 'create_page',
  title: 'Create page',
  description: `Creates an empty draft page (add sections with add_section). slug is the address, e.g. "opening-hours"; made from the title when omitted. ${DRAFT_NOTE}`,
  ...content,
  annotations: CREATE,
  idempotent: 'key',
  input: z.object({
    title: z.string().min(1).max(200),
    slug: z.string().max(120).optional().describe('Lower-case letters, digits and hyphens.'),
  }),
  output: z.object({
    pageId: z.string(),
    slug: z.string(),
    title: z.string(),
    previewUrl: z.string(),
    draftRevision: z.number(),
  }),
  activity: () => 'Created a draft page',
  run: (ctx, input) => createPage(ctx, input),
});

export const create_blog_post = defineTool({
  name: 'create_blog_post',
  title: 'Create blog post',
  description: `Creates a draft blog post, dated today, with a body in ${MARKDOWN} The post page shows the title as its heading: start the body's own headings at ##. Optional excerpt (≤ 300 characters, plain text) for the blog index. ${DRAFT_NOTE}`,
  ...content,
  annotations: CREATE,
  idempotent: 'key',
  input: z.object({
    title: z.string().min(1).max(200),
    body: z.string().min(1).max(20_000).describe('Markdown (the subset above).'),
    excerpt: z.string().max(300).optional(),
  }),
  output: z.object({
    pageId: z.string(),
    sectionId: z.string(),
    slug: z.string(),
    title: z.string(),
    previewUrl: z.string(),
    draftRevision: z.number(),
  }),
  activity: () => 'Created a draft blog post',
  run: (ctx, input) => createBlogPost(ctx, input),
});

const advanced = { ...content, advanced: true } as const;

export const get_section_json = defineTool({
  name: 'get_section_json',
  title: 'Get section JSON',
  description:
    'Advanced editor: one draft section as JSON — content, layout and rev. Pass rev as clientRev to replace_section_content.',
  ...advanced,
  annotations: { ...EDIT, readOnlyHint: true },
  transaction: 'none',
  input: z.object({ pageId: PageId, sectionId: SectionId }),
  output: z.object({ sectionId: z.string(), type: z.string(), content: Json, layout: Json, rev: z.number() }),
  activity: (_i, d) => `Read the JSON of a ${d?.type ?? ''} section`,
  run: (ctx, input) => getSectionJson(ctx, input),
});

export const replace_section_content = defineTool({
  name: 'replace_section_content',
  title: 'Replace section content',
  description: `Advanced editor: replaces a section's whole content with a JSON document of the same section type, validated against its schema (no HTML, CSS, scripts or unsafe links; Markdown fields as update_section_text says). clientRev must be the rev from get_section_json; if the section changed since, the call is refused with stale_revision. ${DRAFT_NOTE}`,
  ...advanced,
  annotations: EDIT,
  input: z.object({
    pageId: PageId,
    sectionId: SectionId,
    content: Json,
    clientRev: z.number().int().min(1).describe('rev from get_section_json.'),
  }),
  output: SectionResult,
  activity: (_i, d) => `Replaced the content of a ${d?.type ?? ''} section`,
  run: (ctx, input) => replaceSectionContent(ctx, input),
});

export const set_section_layout = defineTool({
  name: 'set_section_layout',
  title: 'Set section layout',
  description: `Advanced editor: sets a section's layout tokens (tokens left out are reset to the default): width narrow/normal/wide/full, paddingY none/sm/md/lg/xl, hideOnMobile, hideOnDesktop. ${DRAFT_NOTE}`,
  ...advanced,
  annotations: EDIT,
  input: z.object({
    pageId: PageId,
    sectionId: SectionId,
    layout: SectionLayout,
  }),
  output: SectionResult.extend({ layout: Json }),
  activity: (_i, d) => `Set the layout of a ${d?.type ?? ''} section`,
  run: (ctx, input) => setSectionLayout(ctx, input),
});
