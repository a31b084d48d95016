-- Trigram indexes for an erasure's search of free text (src/domain/crm/erase.ts). pg_trgm ships with
-- PostgreSQL's contrib and is a trusted extension: a database owner may create it (docs/operating.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "bookings_free_text_idx" ON "bookings" USING gin (lower(coalesce("message", '') || ' ' || coalesce("note", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_free_text_idx" ON "contacts" USING gin (lower(coalesce("note", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_free_text_idx" ON "leads" USING gin (lower(coalesce("message", '') || ' ' || coalesce("note", '')) gin_trgm_ops);