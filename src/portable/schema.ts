// PortableSiteV1 (R-IMP-1): the versioned JSON format a
// whole site travels in. Sections are the service's own section types (no HTML, no CSS); images are
// listed once in `assets` by URL and referred to from section content as `asset:<key>` (or by that URL).
// The caps are checked on the raw payload before the shape, so an oversized payload gets payload_too_large.
import { z } from 'zod';
import { ParamSectionType, SECTION_SCHEMAS, SectionLayout } from '../domain/sections/types.js';

/** Size caps of one payload (R-IMP-2). */
export const PORTABLE_CAPS = {
  bytes: 5 * 1024 * 1024,
  pages: 250,
  sectionsPerPage: 100,
  sections: 3000,
  assets: 100,
} as const;

/** Caps of the server-side asset fetch (count is PORTABLE_CAPS.assets). */
export const ASSET_CAPS = {
  bytesEach: 8 * 1024 * 1024,
  bytesTotal: 64 * 1024 * 1024,
  timeMs: 45_000, // the whole asset fetch; MCP clients time a call out after 60 s by default
  fetchTimeoutMs: 15_000,
  pixels: 40_000_000,
} as const;

const Key = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/#-]*$/, 'Keys use letters, digits and . _ : / # - only.');
const Name = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((s) => !/[<>]/.test(s), 'Angle brackets are not allowed.');
/** Free text outside sections (SEO, excerpt, brand words): plain, no markup. */
const Plain = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/<\s*\/?\s*[a-zA-Z!?]/.test(s), 'HTML is not allowed here; write plain text.');
// The same addresses the app makes: blog posts live under "blog/" (create_blog_post), so an export of a
// site with posts imports again and a migrated post keeps the address the blog index links to.
const Slug = z
  .string()
  .min(1)
  .max(120)
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/,
    'Slugs are lowercase letters, digits and single hyphens, in segments separated by "/".',
  );
const Token = z.union([
  z
    .string()
    .max(200)
    .refine((s) => !/[<>{};]/.test(s), 'Settings hold plain values, never markup or CSS.'),
  z.number(),
  z.boolean(),
]);
/** Config, theme and fonts: flat, bounded key/value settings (never free CSS). */
const Settings = z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/), Token);
const Color = z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'Colours are hex values like #8a4b2a.');
const AssetRef = z.string().regex(/^asset:[A-Za-z0-9][A-Za-z0-9._:/#-]*$/);

export const PortableSection = z
  .object({
    externalKey: Key.describe('Stable key of the section; merges match on it. Unique in the payload.'),
    type: ParamSectionType,
    content: z.record(z.string(), z.unknown()),
    layout: SectionLayout.default({}),
    hidden: z.boolean().default(false),
  })
  .strict();

/** A YYYY-MM-DD that names a day of the calendar (not 30 February). */
function realDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

const PortablePage = z
  .object({
    slug: Slug,
    title: Name,
    kind: z.enum(['page', 'post']).default('page'),
    excerpt: Plain(500).nullable().default(null),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/)
      .refine((d) => realDay(d.slice(0, 10)) && !Number.isNaN(Date.parse(d)), 'Not a real date.')
      .optional()
      .describe(
        "A post's date (YYYY-MM-DD or an ISO date-time): the day its blog shows. Default: the day of the import.",
      ),
    seo: z
      .object({
        title: Plain(200).nullable().default(null),
        description: Plain(500).nullable().default(null),
      })
      .strict()
      .default({ title: null, description: null }),
    sections: z.array(PortableSection),
  })
  .strict();

export const PortableAsset = z
  .object({
    key: Key,
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .describe('Where the server fetches the image (http or https).'),
    alt: Plain(300).optional(),
  })
  .strict();

const PortableBrand = z
  .object({
    palette: z.record(z.string().regex(/^[a-z][a-zA-Z0-9]{0,29}$/), Color).default({}),
    fonts: z.object({ heading: Name.optional(), body: Name.optional() }).strict().default({}),
    style: Plain(1000).default(''),
    voice: Plain(1000).default(''),
    logo: AssetRef.nullable().default(null),
  })
  .strict();

export const PortableSiteV1 = z
  .object({
    version: z.literal(1),
    name: Name.describe('Website name.'),
    businessName: Name.describe('Business name shown on the site.'),
    brand: PortableBrand.default({ palette: {}, fonts: {}, style: '', voice: '', logo: null }),
    config: Settings.default({}),
    theme: Settings.default({}),
    fonts: Settings.default({}),
    pages: z.array(PortablePage).min(1),
    assets: z.array(PortableAsset).default([]),
  })
  .strict();

export type PortableSiteV1 = z.output<typeof PortableSiteV1>;
export type PortableSection = z.output<typeof PortableSection>;
export type PortableAsset = z.output<typeof PortableAsset>;

/** JSON Schema of the format, served at GET /schemas/portable-site-v1.json. Section content is
 * listed per type under `$defs.sectionContent` (URL fields also accept `asset:<key>` before import). */
export function portableJsonSchema(): Record<string, unknown> {
  const base = z.toJSONSchema(PortableSiteV1, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  const sectionContent = Object.fromEntries(
    Object.entries(SECTION_SCHEMAS).map(([type, schema]) => {
      const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
      delete (json as Record<string, unknown>).$schema;
      return [type, json];
    }),
  );
  return {
    $schema: base.$schema,
    $id: 'portable-site-v1.json',
    title: 'PortableSiteV1',
    description:
      'A whole website for import_site: pages of typed sections (no HTML or CSS) and images listed by URL in `assets`, referred to from section content as `asset:<key>`.',
    ...base,
    $defs: { ...((base.$defs as Record<string, unknown>) ?? {}), sectionContent },
  };
}
