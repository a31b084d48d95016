// Who and what the rest hangs on: companies (workspaces), people, their memberships, websites and
// the people invited to them.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.js';

/** A workspace (company). An agency company may manage client companies and withhold areas from them. */
export const companies = pgTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(), // the business name
  plan: text('plan').notNull().default('free'), // free | starter | pro | agency
  siteLimit: integer('site_limit').notNull().default(1),
  credits: integer('credits').notNull().default(0),
  monthlyCreditReset: boolean('monthly_credit_reset').notNull().default(false),
  trialEndsAt: ts('trial_ends_at'),
  paymentCustomerId: text('payment_customer_id'),
  aiConsent: boolean('ai_consent').notNull().default(false),
  advancedEditor: boolean('advanced_editor').notNull().default(false),
  agencyId: text('agency_id'),
  withheldAreas: jsonb('withheld_areas').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
});

/** Company Memory: short facts about the business that image generation and drafting may use. */
export const companyMemory = pgTable('company_memory', {
  id: text('id').primaryKey(),
  companyId: text('company_id')
    .notNull()
    .references(() => companies.id),
  fact: text('fact').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
});

/** Workspace membership: who belongs to a company at all (site roles are on website_members). */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull().default('member'), // owner | member
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

export const websites = pgTable(
  'websites',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    draftRev: integer('draft_rev').notNull().default(1),
    /** The live revision: null while never published, taken offline or deleted. */
    publishedRev: integer('published_rev'),
    /** When it last went live; kept when the site is taken offline (publishedRev is then null). */
    publishedAt: ts('published_at'),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    theme: jsonb('theme').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    fonts: jsonb('fonts').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    searchVisible: boolean('search_visible').notNull().default(false),
    /** Visitors' AI assistants may use the published site's MCP endpoint (on unless the owner turns it off). */
    visitorAgents: boolean('visitor_agents').notNull().default(true),
    /**
     * Set when the owner deletes the site in the console: every read path treats it as gone (tools
     * answer not_found, visitors get 404), the owner can restore it for 30 days, then the retention
     * sweep purges it with everything it holds (src/domain/sites/delete.ts).
     */
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('websites_company_idx').on(t.companyId)],
);

export const websiteMembers = pgTable(
  'website_members',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(), // owner | editor | viewer
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.userId] }), index('website_members_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    email: text('email').notNull(),
    level: text('level').notNull(), // editor | viewer
    status: text('status').notNull().default('pending'), // pending | accepted | revoked
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('invitations_website_idx').on(t.websiteId)],
);
