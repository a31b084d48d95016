ALTER TABLE "pending_actions" ADD COLUMN "reviewed_draft" jsonb;--> statement-breakpoint
-- Publish plans made before kept the reviewed draft inside their subject: move it to its own column.
UPDATE "pending_actions" SET "reviewed_draft" = "subject"->'draft', "subject" = "subject" - 'draft' WHERE "kind" = 'publish' AND "subject" ? 'draft';
