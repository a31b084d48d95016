// Section types as schemas (R-DATA-2): each type's content is a strict zod object.
// Text is plain text or a small Markdown subset; URLs are http(s), site-relative or library asset ids.
// Raw HTML, CSS, <script>, javascript: and data: URLs can never enter: every write path validates here.
import { z } from 'zod';
import { outsideSubset } from './markdown-subset.js';

const TAG_LIKE = /<\s*\/?\s*[a-zA-Z!?]/;
// javascript:/vbscript: anywhere; data: only where it looks like a URL ("data:text/html,…", "data:,…"),
// so an owner can still write "Our data: 5 loaves a day".
const BAD_SCHEME = /\b(?:javascript|vbscript)\s*:|\bdata\s*:\s*(?:[a-z-]+\/[a-z0-9.+-]+|[,;])/i;
/** Markdown link targets inside text: `[label](target)`. Each target must pass isSafeLinkTarget. */
export const MD_LINK = /\[([^\]\n]{1,500})\]\(([^)\s]{1,2000})\)/g;
/** Markdown images: `![alt](target)`. The target must be one of the site's library assets. */
const MD_IMAGE = /!\[[^\]\n]{0,500}\]\(([^)\s]{1,2000})\)/g;

/** Plain text or Markdown: no tags, no script-capable URL schemes, no control characters. */
export const SafeText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !TAG_LIKE.test(s), { message: 'HTML is not allowed here; write plain text or Markdown.' })
    .refine((s) => !BAD_SCHEME.test(s), {
      message: 'javascript:, vbscript: and data: links are not allowed.',
    })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), {
      message: 'Control characters are not allowed.',
    })
    .refine((s) => [...s.matchAll(MD_LINK)].every((m) => isSafeLinkTarget(m[2]!)), {
      message:
        'A Markdown link must point to an https:// or http:// address, mailto:, tel:, a path starting with / or #.',
    })
    .refine((s) => [...s.matchAll(MD_IMAGE)].every((m) => ASSET_ID.test(m[1]!)), {
      message: 'A Markdown image must be a library asset id (![description](asset_…), see generate_image).',
    });

export const ASSET_ID = /^asset_[0-9A-Za-z]{16}$/;

export function isSafeUrl(s: string): boolean {
  if (ASSET_ID.test(s)) return true;
  if (/[\s<>"'`\\]/.test(s)) return false;
  if (s.startsWith('/') && !s.startsWith('//')) return true;
  if (s.startsWith('#')) return true;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

const MAILTO = /^mailto:[^\s<>"'`\\@/?#]{1,64}@[A-Za-z0-9.-]{1,253}$/i;
const TEL = /^tel:\+?[0-9][0-9().-]{2,30}$/i;

/** Where a Markdown link may point: what isSafeUrl allows, plus mailto: and tel: links. */
export function isSafeLinkTarget(s: string): boolean {
  return isSafeUrl(s) || MAILTO.test(s) || TEL.test(s);
}

const SafeUrl = z.string().min(1).max(2000).refine(isSafeUrl, {
  message: 'Use an https:// or http:// address, a path starting with /, or a library asset id.',
});

const Heading = SafeText(200);
const Short = SafeText(300);
const Body = SafeText(20_000);

export const SECTION_SCHEMAS = {
  hero: z
    .object({
      heading: Heading,
      subheading: Short.optional(),
      buttonLabel: SafeText(60).optional(),
      buttonUrl: SafeUrl.optional(),
      imageUrl: SafeUrl.optional(),
    })
    .strict(),
  text: z.object({ heading: Heading.optional(), body: Body }).strict(),
  image: z.object({ url: SafeUrl, alt: Short, caption: Short.optional() }).strict(),
  gallery: z
    .object({
      heading: Heading.optional(),
      images: z.array(z.object({ url: SafeUrl, alt: Short }).strict()).max(48),
    })
    .strict(),
  features: z
    .object({
      heading: Heading.optional(),
      // imageUrl (optional): a team member's photo, a portfolio piece, a service's picture; url
      // (optional): where the item's title leads (a service's page, a post).
      items: z
        .array(
          z
            .object({
              title: Heading,
              body: SafeText(2000),
              imageUrl: SafeUrl.optional(),
              url: SafeUrl.optional(),
            })
            .strict(),
        )
        .max(24),
    })
    .strict(),
  testimonials: z
    .object({
      heading: Heading.optional(),
      // imageUrl (optional): the speaker's photo.
      items: z
        .array(
          z.object({ quote: SafeText(2000), author: SafeText(120), imageUrl: SafeUrl.optional() }).strict(),
        )
        .max(24),
    })
    .strict(),
  pricing: z
    .object({
      heading: Heading.optional(),
      plans: z
        .array(
          z
            .object({
              name: SafeText(120),
              price: SafeText(60),
              features: z.array(SafeText(200)).max(20),
              buttonLabel: SafeText(60).optional(),
              buttonUrl: SafeUrl.optional(),
            })
            .strict(),
        )
        .max(6),
    })
    .strict(),
  faq: z
    .object({
      heading: Heading.optional(),
      items: z.array(z.object({ question: Short, answer: SafeText(4000) }).strict()).max(50),
    })
    .strict(),
  cta: z
    .object({
      heading: Heading,
      body: SafeText(1000).optional(),
      buttonLabel: SafeText(60),
      buttonUrl: SafeUrl,
    })
    .strict(),
  contact: z
    .object({
      heading: Heading.optional(),
      body: SafeText(2000).optional(),
      email: z.email().optional(),
      phone: SafeText(40).optional(),
      address: SafeText(300).optional(),
      showForm: z.boolean().default(true),
    })
    .strict(),
  blog_body: z.object({ body: Body }).strict(),
} as const;

export type SectionType = keyof typeof SECTION_SCHEMAS;
export const SECTION_TYPES = Object.keys(SECTION_SCHEMAS) as SectionType[];
export const ParamSectionType = z.enum(SECTION_TYPES as [SectionType, ...SectionType[]]);

export function isSectionType(s: string): s is SectionType {
  return Object.hasOwn(SECTION_SCHEMAS, s);
}

/** The top-level plain-text fields of each type: what update_section_text may change. */
export const TEXT_FIELDS: Record<SectionType, readonly string[]> = {
  hero: ['heading', 'subheading', 'buttonLabel'],
  text: ['heading', 'body'],
  image: ['alt', 'caption'],
  gallery: ['heading'],
  features: ['heading'],
  testimonials: ['heading'],
  pricing: ['heading'],
  faq: ['heading'],
  cta: ['heading', 'body', 'buttonLabel'],
  contact: ['heading', 'body', 'phone', 'address'],
  blog_body: ['body'],
};

/**
 * The Markdown text fields of each type, as the site renders them: 'markdown' blocks (paragraphs,
 * headings, lists) or one line of 'inline' Markdown. Paths name keys without list positions
 * ("items.body"); every other text field is shown as plain text.
 */
export const MARKDOWN_FIELDS: Record<SectionType, Readonly<Record<string, 'markdown' | 'inline'>>> = {
  hero: { subheading: 'inline' },
  text: { body: 'markdown' },
  image: { caption: 'inline' },
  gallery: {},
  features: { 'items.body': 'markdown' },
  testimonials: { 'items.quote': 'inline' },
  pricing: { 'plans.features': 'inline' },
  faq: { 'items.answer': 'markdown' },
  cta: { body: 'markdown' },
  contact: { body: 'markdown' },
  blog_body: { body: 'markdown' },
};

/** How a field at `path` (keys without list positions) of a section of `type` is shown. */
export function fieldFormat(type: string, path: string): 'markdown' | 'inline' | 'text' {
  return (isSectionType(type) && MARKDOWN_FIELDS[type][path]) || 'text';
}

/** Layout tokens (R-DATA-2): bounded, never free CSS. */
export const SectionLayout = z
  .object({
    width: z.enum(['narrow', 'normal', 'wide', 'full']).optional(),
    paddingY: z.enum(['none', 'sm', 'md', 'lg', 'xl']).optional(),
    hideOnMobile: z.boolean().optional(),
    hideOnDesktop: z.boolean().optional(),
  })
  .strict();
export type SectionLayout = z.infer<typeof SectionLayout>;

/** Validates content against its type's schema; returns the parsed content or the first problem. */
export function parseSectionContent(
  type: string,
  content: unknown,
): { ok: true; content: Record<string, unknown> } | { ok: false; message: string } {
  if (!isSectionType(type)) return { ok: false, message: `Unknown section type "${type}".` };
  const r = SECTION_SCHEMAS[type].safeParse(content);
  if (r.success) {
    const outside = outsideOfSubset(type, r.data as Record<string, unknown>);
    if (outside) return { ok: false, message: outside };
    return { ok: true, content: r.data as Record<string, unknown> };
  }
  const issue = r.error.issues[0]!;
  return { ok: false, message: `${type}.${issue.path.join('.') || '(content)'}: ${issue.message}` };
}

/** The values at a field path ("items.body") of parsed content, through lists. */
function valuesAt(v: unknown, keys: readonly string[]): unknown[] {
  if (Array.isArray(v)) return v.flatMap((x) => valuesAt(x, keys));
  if (!keys.length) return [v];
  if (!v || typeof v !== 'object') return [];
  return valuesAt((v as Record<string, unknown>)[keys[0]!], keys.slice(1));
}

/** "text.body: a reference-style link … is not in the Markdown subset", or null. */
function outsideOfSubset(type: SectionType, content: Record<string, unknown>): string | null {
  for (const [path, format] of Object.entries(MARKDOWN_FIELDS[type]))
    for (const v of valuesAt(content, path.split('.'))) {
      const named = typeof v === 'string' ? outsideSubset(v, format) : null;
      if (named)
        return `${type}.${path}: ${named} is not in the Markdown subset the site shows; write it another way.`;
    }
  return null;
}
