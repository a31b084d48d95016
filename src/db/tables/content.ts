// What a website shows: pages and their sections, its brand, its domains, its library assets and the
// blob bytes they point at.
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { PageWithSections } from '../page-shape.js';
import { createdAt, ts } from './columns.js';
import { websites } from './workspace.js';

export const pages = pgTable(
  'pages',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    kind: text('kind').notNull().default('page'), // page | post
    excerpt: text('excerpt'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    position: integer('position').notNull().default(0),
    rev: integer('rev').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pages_website_slug_idx').on(t.websiteId, t.slug)],
);

export const sections = pgTable(
  'sections',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    pageId: text('page_id')
      .notNull()
      .references(() => pages.id),
    type: text('type').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    layout: jsonb('layout').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    hidden: boolean('hidden').notNull().default(false),
    position: integer('position').notNull(),
    rev: integer('rev').notNull().default(1),
    /** Key of the section in an imported PortableSiteV1 payload; merges match on it. */
    externalKey: text('external_key'),
    /** Hash of the content as last imported; differs from the current content once edited in the app. */
    importFingerprint: text('import_fingerprint'),
    /**
     * md5 of the content and layout as jsonb prints them, kept by the database: what the draft's change
     * list compares with the live site's (src/domain/sites/digest.ts), without reading every section.
     */
    digest: text('digest').notNull().generatedAlwaysAs(sql`md5(content::text || '|' || layout::text)`),
    /** Whether any text of the content is add_section's placeholder (sitegate_has_placeholder, 0019). */
    placeholder: boolean('placeholder').notNull().generatedAlwaysAs(sql`sitegate_has_placeholder(content)`),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('sections_page_idx').on(t.pageId, t.position),
    index('sections_website_idx').on(t.websiteId),
    // The few sections that still show placeholder text, by website (draftPlaceholders).
    index('sections_placeholder_idx').on(t.websiteId).where(sql`placeholder`),
  ],
);

/**
 * The live site, a row per page (the page as published, with its sections) and a row per section with
 * its digest (as sections.digest computes it). A publish writes the rows of the pages that changed
 * alone (src/domain/sites/publish.ts); the change list compares them with the draft in SQL and reads
 * the changed pages alone (src/domain/sites/digest.ts); the live site reads them (view.ts).
 */
export const publishedPageDigests = pgTable(
  'published_page_digests',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    pageId: text('page_id').notNull(),
    /** 1-based place in the snapshot's page list. */
    position: integer('position').notNull(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    kind: text('kind').notNull(),
    excerpt: text('excerpt'),
    /** Whether the snapshot recorded an excerpt at all (older ones did not). */
    hasExcerpt: boolean('has_excerpt').notNull(),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    /** When the page was created (its post date), null for pages published before it was recorded. */
    createdAt: ts('created_at'),
    /** md5 of `page`: a page whose digest moved changed (a process re-reads that page alone). */
    digest: text('digest'),
    /** The page as it is live, with its sections (PageWithSections). */
    page: jsonb('page').$type<PageWithSections>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.pageId] })],
);

export const publishedSectionDigests = pgTable(
  'published_section_digests',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    sectionId: text('section_id').notNull(),
    pageId: text('page_id').notNull(),
    /** 1-based place in its page's section list. */
    position: integer('position').notNull(),
    type: text('type').notNull(),
    hidden: boolean('hidden').notNull(),
    digest: text('digest').notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.sectionId] })],
);

/**
 * The draft pages written since the site last went live: a row per page whose page row or sections were
 * inserted, updated or deleted (a section moved names both pages), kept by triggers on pages and
 * sections (migration 0027), so no writer can leave one out. A publish writes these pages and empties
 * the list; the change list reads them alone (src/domain/sites/digest.ts).
 */
export const draftTouchedPages = pgTable(
  'draft_touched_pages',
  {
    // No foreign key: written by every draft write, it would lock the website row for key share each time.
    websiteId: text('website_id').notNull(),
    pageId: text('page_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.pageId] })],
);

export const brands = pgTable('brands', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id),
  palette: jsonb('palette').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  fonts: jsonb('fonts').$type<{ heading?: string; body?: string }>().notNull().default(sql`'{}'::jsonb`),
  style: text('style').notNull().default(''),
  voice: text('voice').notNull().default(''),
  logoAssetId: text('logo_asset_id'),
});

export const domains = pgTable(
  'domains',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    hostname: text('hostname').notNull().unique(),
    status: text('status').notNull().default('pending'), // pending | verified
    verificationToken: text('verification_token').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    lastCheckedAt: ts('last_checked_at'),
    verifiedAt: ts('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [index('domains_website_idx').on(t.websiteId)],
);

/** Library assets; the bytes live in the content-addressed blob store under `sha256`. */
export const assets = pgTable(
  'assets',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    kind: text('kind').notNull().default('image'),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    sha256: text('sha256').notNull(),
    source: text('source').notNull(), // generated | import | upload
    prompt: text('prompt'),
    createdAt: createdAt(),
  },
  (t) => [index('assets_website_idx').on(t.websiteId)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Blob bytes when running on PostgreSQL, so every process sees every blob (R-SCALE-1). */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});
