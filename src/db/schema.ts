// The whole data model, one Drizzle schema for PGlite and PostgreSQL alike, gathered from
// src/db/tables/ (one file per part of the model). drizzle-kit reads this file to generate migrations.
// Storage layout notes live in docs/data-model.md. Ids are prefixed text (`site_…`), made by ids.ts.
export * from './tables/access.js';
export * from './tables/business.js';
export * from './tables/content.js';
export * from './tables/operations.js';
export * from './tables/workspace.js';
